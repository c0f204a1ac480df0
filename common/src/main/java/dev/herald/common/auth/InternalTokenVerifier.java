package dev.herald.common.auth;

import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** Checks an internal JWT's signature, issuer, audience and expiry, and reads the caller from it. */
public final class InternalTokenVerifier {
    static final String WORKSPACE_CLAIM = "wid";
    static final String MODE_CLAIM = "mode";
    static final String SCOPE_CLAIM = "scope";

    private final DefaultJWTParser parser;

    public InternalTokenVerifier(PublicKey key, String issuer, String audience) {
        JWTAuthContextInfo info = new JWTAuthContextInfo(key, issuer);
        info.setExpectedAudience(Set.of(audience));
        info.setSignatureAlgorithm(Set.of(SignatureAlgorithm.RS256));
        // A few seconds of tolerance for clocks of different hosts; smallrye-jwt's default is a minute.
        info.setClockSkew(5);
        this.parser = new DefaultJWTParser(info);
    }

    /** The caller the token vouches for; empty when the token is missing, forged, expired or malformed. */
    public Optional<InternalToken> verify(String jwt) {
        if (jwt == null || jwt.isBlank()) {
            return Optional.empty();
        }
        try {
            JsonWebToken parsed = parser.parse(jwt);
            String workspace = parsed.getClaim(WORKSPACE_CLAIM);
            Optional<Mode> mode = Mode.fromWire(parsed.getClaim(MODE_CLAIM));
            String scope = parsed.getClaim(SCOPE_CLAIM);
            if (workspace == null || mode.isEmpty()) {
                return Optional.empty();
            }
            Set<String> scopes = scope == null || scope.isBlank() ? Set.of()
                    : Arrays.stream(scope.trim().split(" +")).collect(Collectors.toUnmodifiableSet());
            return Optional.of(new InternalToken(workspace, mode.get(), parsed.getSubject(), scopes));
        } catch (ParseException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
