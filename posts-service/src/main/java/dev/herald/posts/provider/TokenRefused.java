package dev.herald.posts.provider;

/** The platform refused the access token (an HTTP 401, or Graph's code 190): worth one renewal, no more. */
public class TokenRefused extends RuntimeException {
    private final String refusedToken;

    public TokenRefused(String refusedToken) {
        super("the platform refused the access token", null, false, false);
        this.refusedToken = refusedToken;
    }

    /** Never logged: only its SHA-256 travels, to accounts-service. */
    public String refusedToken() {
        return refusedToken;
    }
}
