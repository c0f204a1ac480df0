package dev.herald.common.auth;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Optional;

/**
 * Builds the verifier and issuer from {@link InternalJwtConfig} once, on first use, so a service without
 * {@link InternalCaller} resources (or a gateway that only mints) needs only the key it uses.
 */
@ApplicationScoped
public class InternalTokens {
    private final InternalJwtConfig config;
    private final Clock clock;
    private volatile InternalTokenVerifier verifier;
    private volatile InternalTokenIssuer issuer;
    private volatile java.security.PrivateKey signingKey;

    public InternalTokens(InternalJwtConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    public InternalTokenVerifier verifier() {
        if (verifier == null) {
            String pem = required(config.publicKey(), "herald.internal-jwt.public-key");
            verifier = new InternalTokenVerifier(RsaKeys.readPublicKey(pem), config.issuer(), config.audience());
        }
        return verifier;
    }

    public InternalTokenIssuer issuer() {
        if (issuer == null) {
            String pem = required(config.privateKey(), "herald.internal-jwt.private-key");
            issuer = new InternalTokenIssuer(
                    RsaKeys.readPrivateKey(pem), config.issuer(), config.audience(), config.ttl(), clock);
        }
        return issuer;
    }

    /** The private key this service signs with (the internal JWT's, also used for OAuth access tokens). */
    public java.security.PrivateKey signingKey() {
        if (signingKey == null) {
            signingKey = RsaKeys.readPrivateKey(required(config.privateKey(), "herald.internal-jwt.private-key"));
        }
        return signingKey;
    }

    private static String required(Optional<String> value, String property) {
        return value.filter(v -> !v.isBlank())
                .orElseThrow(() -> new IllegalStateException(property + " is not configured"));
    }
}
