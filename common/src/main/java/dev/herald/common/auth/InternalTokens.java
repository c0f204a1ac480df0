package dev.herald.common.auth;

import dev.herald.common.crypto.KeyFiles;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.security.PrivateKey;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * The internal JWT's keys, their verifier and issuer, from {@link InternalJwtConfig}: its values, read once, or the
 * files of its {@code key-directory}, read again when they change (a rotation step without a restart). Built on first
 * use, so a service without {@link InternalCaller} resources (or a gateway that only mints) needs only the keys it
 * uses. Callers ask for the verifier and issuer on every use, so a reload reaches them at once.
 */
@ApplicationScoped
public class InternalTokens {
    /** The files of {@code herald.internal-jwt.key-directory}: the JWKS, the signing key's id and its private key. */
    public static final String VERIFY_KEYS_FILE = "verify-keys.json";

    public static final String SIGNING_KEY_ID_FILE = "signing-key-id";
    public static final String PRIVATE_KEY_FILE = "private.pem";

    private final InternalJwtConfig config;
    private final Clock clock;
    private volatile Supplier<InternalKeys> keys;

    public InternalTokens(InternalJwtConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    /**
     * Keys that are configured are read and checked at start: a pod whose keys are unusable (a signing key missing from
     * its verification set: a rotation's step 2 before step 1) fails to start, and the rollout stalls with the old
     * pods serving, rather than refusing every call once started.
     */
    void checkAtStartup(@Observes StartupEvent started) {
        if (config.keyDirectory().isPresent()
                || config.verifyKeys().isPresent()
                || config.privateKey().isPresent()) {
            keys();
        }
    }

    /** The public keys tokens are accepted from ({@code herald.internal-jwt.verify-keys}). */
    public VerifyKeys verifyKeys() {
        return keys().verifyKeys();
    }

    public InternalTokenVerifier verifier() {
        return keys().verifier();
    }

    public InternalTokenIssuer issuer() {
        return keys().issuer();
    }

    /** The private key this service signs with (the internal JWT's, also used for OAuth access tokens). */
    public PrivateKey signingKey() {
        return keys().signingKey();
    }

    /** The id of {@link #signingKey()}, which every token it signs names in its header. */
    public String signingKeyId() {
        return keys().signingKeyId();
    }

    private InternalKeys keys() {
        Supplier<InternalKeys> source = keys;
        if (source == null) {
            synchronized (this) {
                if (keys == null) {
                    keys = source();
                }
                source = keys;
            }
        }
        return source.get();
    }

    private Supplier<InternalKeys> source() {
        if (config.keyDirectory().isPresent()) {
            KeyFiles<InternalKeys> files = KeyFiles.watch(
                    "internal JWT keys",
                    config.keyDirectory().get(),
                    List.of(VERIFY_KEYS_FILE, SIGNING_KEY_ID_FILE, PRIVATE_KEY_FILE),
                    config.reloadInterval(),
                    texts -> new InternalKeys(
                            texts.get(VERIFY_KEYS_FILE),
                            texts.get(SIGNING_KEY_ID_FILE),
                            texts.get(PRIVATE_KEY_FILE),
                            config,
                            clock));
            return files::current;
        }
        InternalKeys configured =
                new InternalKeys(config.verifyKeys(), config.signingKeyId(), config.privateKey(), config, clock);
        return () -> configured;
    }
}
