package dev.herald.common.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Keys and claims of the internal JWT. RS256: services that only verify hold only public keys; the private key goes
 * to the callers that mint tokens (the gateway, accounts, posts and delivery-worker). Keys are named by id
 * ({@code kid}) so they rotate without downtime: docs/operations.md, "Secret rotation".
 */
@ConfigMapping(prefix = "herald.internal-jwt")
public interface InternalJwtConfig {
    /**
     * The public keys tokens are accepted from: a JWKS (JSON Web Key Set) of RSA keys, each with its {@code kid}.
     * During a rotation it holds the old key and the new one.
     */
    Optional<String> verifyKeys();

    /** The id ({@code kid}) of {@link #privateKey()}, named in every token signed with it; only on signers. */
    Optional<String> signingKeyId();

    /** PEM (or bare base64) PKCS#8 private key; only on services that mint tokens. */
    Optional<String> privateKey();

    /**
     * A directory holding the three keys above as files ({@code verify-keys.json}, {@code signing-key-id},
     * {@code private.pem}), e.g. the Secret mounted as a volume; it takes the place of the three settings, and its
     * files are read again every {@link #reloadInterval()}, so a rotation step needs no restart.
     */
    Optional<Path> keyDirectory();

    @WithDefault("PT10S")
    Duration reloadInterval();

    @WithDefault("herald-gateway")
    String issuer();

    @WithDefault("herald-services")
    String audience();

    /**
     * Lifetime of an internal token; callers reuse one for half of it. Internal tokens never leave the cluster and
     * the gateway checks the API key on every request before it forwards one, so a revoked key stops at the
     * gateway at once whatever this is. Ten minutes keeps RSA signing off the hot path when the traffic is spread
     * over many workspaces (each workspace and mode needs its own token): at 60 s, a few hundred workspaces cost
     * every caller several signatures a second.
     */
    @WithDefault("PT10M")
    Duration ttl();
}
