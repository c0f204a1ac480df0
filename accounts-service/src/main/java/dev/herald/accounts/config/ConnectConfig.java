package dev.herald.accounts.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/** Hosted connect pages: where end users reach them and how their browser is bound to a session. */
@ConfigMapping(prefix = "herald.connect")
public interface ConnectConfig {
    /**
     * The public origin the pages are served at (the gateway's, which routes {@code /connect/**} here):
     * session URLs and OAuth callback URIs are built from it. Production sets HERALD_CONNECT_PUBLIC_URL.
     */
    @WithDefault("http://127.0.0.1:8080")
    URI publicUrl();

    /**
     * Signs browser cookies, CSRF tokens, OAuth state and PKCE verifiers; every replica must share it. When
     * absent it is derived from {@code herald.cursor.secret} (HMAC with a label of its own), so a suite has
     * one secret less to distribute.
     */
    Optional<String> secret();

    /** How long an OAuth round trip (authorization URL to callback) may take before its state is refused. */
    @WithDefault("PT15M")
    Duration authorizationTimeout();

    /**
     * How many connect sessions the API may create per workspace and mode in a rolling hour (OWASP API6: a script
     * minting sessions); more are {@code 429 rate_limit_exceeded} with {@code Retry-After}. 0 turns the cap off.
     */
    @WithDefault("100")
    int sessionsPerHour();
}
