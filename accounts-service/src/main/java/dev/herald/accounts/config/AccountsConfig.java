package dev.herald.accounts.config;

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

    /** Account analytics (decisions 151 to 156). */
    interface Analytics {
        /** Numbers read this recently are answered from the cache, free of the monthly API request allowance. */
        @WithDefault("15m")
        Duration freshness();

        /** How often the refresher looks for connected accounts whose numbers are due. */
        @WithDefault("1m")
        Duration refreshInterval();

        /** How long after a read the refresher reads an account again: shorter than freshness, so reads stay free. */
        @WithDefault("10m")
        Duration refreshEvery();

        /** Accounts one refresher pass claims. */
        @WithDefault("50")
        int refreshBatch();

        /** How long a claim keeps other replicas off an account; a replica that died mid-pass lets go after it. */
        @WithDefault("2m")
        Duration claimLease();
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
