package dev.herald.common.auth;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.util.Optional;

/**
 * One configuration of the internal JWT's keys, with the verifier and issuer made from it. What is configured is
 * checked at once; what is missing fails only when used (a service that only verifies has no private key). A signing
 * key must be in the service's own verify set under its id: signing with a key the other services may not hold yet is
 * step 2 of a rotation done before step 1.
 */
final class InternalKeys {
    static final String VERIFY_KEYS = "herald.internal-jwt.verify-keys";
    static final String SIGNING_KEY_ID = "herald.internal-jwt.signing-key-id";
    static final String PRIVATE_KEY = "herald.internal-jwt.private-key";

    private final Optional<VerifyKeys> verifyKeys;
    private final Optional<InternalTokenVerifier> verifier;
    private final Optional<String> signingKeyId;
    private final Optional<PrivateKey> signingKey;
    private final Optional<InternalTokenIssuer> issuer;

    InternalKeys(
            Optional<String> verifyKeysJwks,
            Optional<String> kid,
            Optional<String> privateKeyPem,
            InternalJwtConfig config,
            Clock clock) {
        this.verifyKeys = present(verifyKeysJwks).map(VerifyKeys::fromJwks);
        this.verifier = verifyKeys.map(keys -> new InternalTokenVerifier(keys, config.issuer(), config.audience()));
        this.signingKeyId = present(kid).map(RsaKeys::checkedKeyId);
        this.signingKey = present(privateKeyPem).map(RsaKeys::readPrivateKey);
        if (signingKey.isPresent() && signingKeyId.isEmpty()) {
            throw new IllegalStateException(PRIVATE_KEY + " is configured without " + SIGNING_KEY_ID);
        }
        if (signingKey.isPresent() && verifyKeys.isPresent()) {
            requireInVerifySet(signingKeyId.get(), signingKey.get(), verifyKeys.get());
        }
        this.issuer = signingKey.map(key -> new InternalTokenIssuer(
                signingKeyId.get(), key, config.issuer(), config.audience(), config.ttl(), clock));
    }

    VerifyKeys verifyKeys() {
        return verifyKeys.orElseThrow(() -> missing(VERIFY_KEYS));
    }

    InternalTokenVerifier verifier() {
        return verifier.orElseThrow(() -> missing(VERIFY_KEYS));
    }

    InternalTokenIssuer issuer() {
        return issuer.orElseThrow(() -> missing(PRIVATE_KEY));
    }

    PrivateKey signingKey() {
        return signingKey.orElseThrow(() -> missing(PRIVATE_KEY));
    }

    String signingKeyId() {
        return signingKeyId.orElseThrow(() -> missing(SIGNING_KEY_ID));
    }

    private static void requireInVerifySet(String kid, PrivateKey key, VerifyKeys keys) {
        PublicKey published = RsaKeys.readJwks(keys.jwks()).get(kid);
        if (published == null) {
            throw new IllegalStateException(SIGNING_KEY_ID + " " + kid + " is not in this service's " + VERIFY_KEYS
                    + ": add its public key to every service's set before signing with it");
        }
        if (!(key instanceof RSAPrivateCrtKey privateKey)
                || !(published instanceof RSAPublicKey publicKey)
                || !privateKey.getModulus().equals(publicKey.getModulus())) {
            throw new IllegalStateException(PRIVATE_KEY + " is not the private key of " + kid + " in " + VERIFY_KEYS);
        }
    }

    private static Optional<String> present(Optional<String> value) {
        return value.filter(text -> !text.isBlank());
    }

    private static IllegalStateException missing(String property) {
        return new IllegalStateException(property + " is not configured");
    }
}
