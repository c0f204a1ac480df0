package dev.herald.common.auth;

import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.security.PrivateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Mints the short-lived internal JWT a trusted caller attaches to a service call, signed with the private key of
 * {@code keyId}, which its header names ({@code kid}) so verifiers holding several keys pick that one.
 */
public final class InternalTokenIssuer {
    private final String keyId;
    private final PrivateKey key;
    private final String issuer;
    private final String audience;
    private final Duration ttl;
    private final Clock clock;

    public InternalTokenIssuer(
            String keyId, PrivateKey key, String issuer, String audience, Duration ttl, Clock clock) {
        this.keyId = RsaKeys.checkedKeyId(keyId);
        this.key = key;
        this.issuer = issuer;
        this.audience = audience;
        this.ttl = ttl;
        this.clock = clock;
    }

    public String issue(InternalToken token) {
        return issue(token, Map.of());
    }

    /** A token carrying facts only the caller knows, such as the gateway's API-request count for GET /usage. */
    public String issue(InternalToken token, Map<String, Object> extraClaims) {
        Instant now = clock.instant();
        JwtClaimsBuilder claims = Jwt.claims(extraClaims);
        return claims.issuer(issuer)
                .audience(audience)
                .subject(token.keyId())
                .claim(InternalTokenVerifier.WORKSPACE_CLAIM, token.workspaceId())
                .claim(InternalTokenVerifier.MODE_CLAIM, token.mode().wireName())
                .claim(InternalTokenVerifier.SCOPE_CLAIM, String.join(" ", token.scopes()))
                .issuedAt(now)
                .expiresAt(now.plus(ttl))
                .jws()
                .keyId(keyId)
                .algorithm(io.smallrye.jwt.algorithm.SignatureAlgorithm.RS256)
                .sign(key);
    }
}
