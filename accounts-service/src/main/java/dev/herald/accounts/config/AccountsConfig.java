package dev.herald.accounts.config;

import dev.herald.common.scheduling.AnalyticsRefreshSettings;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "herald.accounts")
public interface AccountsConfig {

    /** The privacy policy a YouTube account owner accepts in the analytics-consent step. */
    @WithDefault("2026-09-01")
    String youtubePolicyVersion();

    /** How long a provider answer (publishing options, a page of boards or sections) is served from cache. */
    @WithDefault("PT60S")
    Duration providerCacheTtl();

    /**
     * Whether Herald's Pinterest app has trial access only: live board and section reads then go to
     * Pinterest's sandbox host, which never shows production boards (spec: trial reads use the sandbox).
     */
    @WithDefault("false")
    boolean pinterestTrialAccess();

    Revocation revocation();

    Analytics analytics();

    /** Account analytics: the refresh settings every analytics cache has. */
    interface Analytics extends AnalyticsRefreshSettings {}

    interface Revocation {
        /** How long an encrypted grant waits for its revocation at most; then it is deleted unrevoked (and logged). */
        @WithDefault("P7D")
        Duration retention();

        @WithDefault("12")
        int maxAttempts();

        /** The first retry's delay; each next one doubles, up to {@link #maxDelay()}. */
        @WithDefault("PT30S")
        Duration firstDelay();

        @WithDefault("PT6H")
        Duration maxDelay();

        @WithDefault("30s")
        String pollInterval();
    }
}
