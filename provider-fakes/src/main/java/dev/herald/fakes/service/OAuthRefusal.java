package dev.herald.fakes.service;

/** An OAuth request the fake refuses (RFC 6749 section 5.2 error codes); each platform renders it in its shape. */
public class OAuthRefusal extends RuntimeException {
    private final String error;
    private final int status;

    public OAuthRefusal(int status, String error, String description) {
        super(description);
        this.status = status;
        this.error = error;
    }

    public String error() {
        return error;
    }

    public int status() {
        return status;
    }
}
