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

    /**
     * How long before its fence in posts-service ends a move to another profile must have written (decision 224): a
     * later write is refused {@code 503} and written nothing, since a post that began after the fence ended may have
     * read the old profile. It covers the services' clocks (2 s apart at most) and the commit itself.
     */
    @WithDefault("10s")
    Duration moveBeforeFenceEnds();

    Revocation revocation();

    Health health();

    Analytics analytics();

    /** Account analytics: the refresh settings every analytics cache has. */
    interface Analytics extends AnalyticsRefreshSettings {}

    /** Connection health checks (docs/accounts-and-connect.md, "Connection health"). */
    interface Health {
        /** How often each live account's grant is checked; each check lands at a random point of the last fifth. */
        @WithDefault("PT6H")
        Duration checkInterval();

        /** A renewable grant is renewed by the health job when its access token ends within this. */
        @WithDefault("PT30M")
        Duration refreshAhead();

        /** A live account is checked again this long before each scheduled post of it is due. */
        @WithDefault("PT15M")
        Duration beforeDue();

        /** After a temporary failure (5xx, 429, timeout) the next try waits this, doubling per failure. */
        @WithDefault("PT30S")
        Duration retryFirstDelay();

        @WithDefault("PT30M")
        Duration retryMaxDelay();

        /** A sandbox account whose username starts with {@code reauth_} turns reauth_required this long after connecting. */
        @WithDefault("PT20S")
        Duration sandboxReauthAfter();

        /** How often the job looks for due checks. */
        @WithDefault("5s")
        String pollInterval();

        /** Checks one poll claims at most (per replica). */
        @WithDefault("50")
        int batchSize();
    }

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
