package dev.herald.common.auth;

import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import java.security.PublicKey;
import java.util.Map;
import java.util.Set;
import org.jose4j.jwx.JsonWebStructure;
import org.jose4j.lang.JoseException;

/**
 * The public keys that internal JWTs (and the gateway's OAuth access tokens) are verified with: a JWKS whose keys are
 * named by {@code kid}, so a key can be added beside the one in use, signing switched to it, and the old one removed,
 * each step a rolling restart (docs/operations.md, "Secret rotation").
 *
 * <p>A token must name its key: one with an unknown {@code kid} or none at all is refused before its signature is
 * checked. Every signer of this version sets the {@code kid}, and no release ever ran signers without it, so
 * accepting kid-less tokens would only widen what a verifier tries (smallrye-jwt would use a lone key for them).
 */
public final class VerifyKeys {
    private final String jwks;
    private final Set<String> keyIds;

    private VerifyKeys(String jwks, Set<String> keyIds) {
        this.jwks = jwks;
        this.keyIds = keyIds;
    }

    /**
     * Reads {@code herald.internal-jwt.verify-keys}.
     *
     * @throws IllegalArgumentException when it is not a JWKS of RSA keys with distinct key ids
     */
    public static VerifyKeys fromJwks(String jwks) {
        return new VerifyKeys(jwks, Set.copyOf(RsaKeys.readJwks(jwks).keySet()));
    }

    /** The set of {@code keys} (key id to public key). */
    public static VerifyKeys of(Map<String, PublicKey> keys) {
        return fromJwks(RsaKeys.jwks(keys));
    }

    public Set<String> keyIds() {
        return keyIds;
    }

    /** The JWKS as text, as configured. */
    public String jwks() {
        return jwks;
    }

    /** Whether the token's header names one of these keys; reads the header only, never checks the signature. */
    public boolean namesOneOf(String jwt) {
        try {
            String kid = JsonWebStructure.fromCompactSerialization(jwt).getKeyIdHeaderValue();
            return kid != null && keyIds.contains(kid);
        } catch (JoseException | RuntimeException e) {
            return false;
        }
    }

    /** smallrye-jwt's verification settings for tokens of {@code issuer} signed with one of these keys. */
    public JWTAuthContextInfo contextInfo(String issuer) {
        JWTAuthContextInfo info = new JWTAuthContextInfo();
        info.setPublicKeyContent(jwks);
        info.setIssuedBy(issuer);
        return info;
    }

    @Override
    public String toString() {
        return "VerifyKeys" + keyIds;
    }
}
