package dev.herald.accounts.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.accounts.config.AccountsConfig;
import dev.herald.accounts.model.AccountEntity;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The health job's timing decisions, with the defaults of {@link AccountsConfig.Health} and a chosen "random". */
class HealthCheckPolicyTest {
    private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");

    private static final AccountsConfig.Health DEFAULTS = new AccountsConfig.Health() {
        @Override
        public Duration checkInterval() {
            return Duration.ofHours(6);
        }

        @Override
        public Duration refreshAhead() {
            return Duration.ofMinutes(30);
        }

        @Override
        public Duration beforeDue() {
            return Duration.ofMinutes(15);
        }

        @Override
        public Duration retryFirstDelay() {
            return Duration.ofSeconds(30);
        }

        @Override
        public Duration retryMaxDelay() {
            return Duration.ofMinutes(30);
        }

        @Override
        public Duration sandboxReauthAfter() {
            return Duration.ofSeconds(20);
        }

        @Override
        public String pollInterval() {
            return "5s";
        }

        @Override
        public int batchSize() {
            return 50;
        }
    };

    private static HealthCheckPolicy policy(double random) {
        return new HealthCheckPolicy(DEFAULTS, () -> random);
    }

    private static AccountEntity account(String mode, String username, long revision) {
        AccountEntity account = new AccountEntity();
        account.mode = mode;
        account.username = username;
        account.authorizationRevision = revision;
        return account;
    }

    @Test
    void regularChecksLandInTheLastFifthOfTheInterval() {
        assertThat(policy(0.0).regular(NOW, null)).isEqualTo(NOW.plus(Duration.ofHours(6)));
        assertThat(policy(0.999).regular(NOW, null))
                .isAfter(NOW.plus(Duration.ofMinutes(288)))
                .isBefore(NOW.plus(Duration.ofMinutes(289)));
    }

    @Test
    void aTokenEnteringTheRenewalWindowBringsTheCheckForward() {
        Instant expires = NOW.plus(Duration.ofHours(1));

        assertThat(policy(0.5).regular(NOW, expires)).isEqualTo(expires.minus(Duration.ofMinutes(30)));
        // Already inside the window: now.
        assertThat(policy(0.5).regular(NOW, NOW.plus(Duration.ofMinutes(10)))).isEqualTo(NOW);
        // Far from its end: the regular interval.
        assertThat(policy(0.0).regular(NOW, NOW.plus(Duration.ofDays(30)))).isEqualTo(NOW.plus(Duration.ofHours(6)));
    }

    @Test
    void temporaryFailuresBackOffDoublingUpToTheCap() {
        HealthCheckPolicy policy = policy(0.5);

        assertThat(policy.afterTemporaryFailure(1, NOW)).isEqualTo(NOW.plusSeconds(30));
        assertThat(policy.afterTemporaryFailure(2, NOW)).isEqualTo(NOW.plusSeconds(60));
        assertThat(policy.afterTemporaryFailure(5, NOW)).isEqualTo(NOW.plusSeconds(480));
        assertThat(policy.afterTemporaryFailure(7, NOW)).isEqualTo(NOW.plus(Duration.ofMinutes(30)));
        assertThat(policy.afterTemporaryFailure(1000, NOW)).isEqualTo(NOW.plus(Duration.ofMinutes(30)));
    }

    @Test
    void theCheckAheadOfAPostIsFifteenMinutesBeforeItOrNowWhenThatIsClose() {
        HealthCheckPolicy policy = policy(0.5);

        assertThat(policy.beforeDue(NOW.plus(Duration.ofHours(2)), NOW)).isEqualTo(NOW.plus(Duration.ofMinutes(105)));
        assertThat(policy.beforeDue(NOW.plus(Duration.ofMinutes(5)), NOW)).isEqualTo(NOW);
        assertThat(policy.beforeDue(NOW.minus(Duration.ofMinutes(5)), NOW)).isEqualTo(NOW);
    }

    @Test
    void aGrantIsRenewedOnceItsTokenEndsWithinTheWindow() {
        HealthCheckPolicy policy = policy(0.5);

        assertThat(policy.renewNow(NOW.plus(Duration.ofMinutes(29)), NOW)).isTrue();
        assertThat(policy.renewNow(NOW.plus(Duration.ofMinutes(30)), NOW)).isTrue();
        assertThat(policy.renewNow(NOW.plus(Duration.ofMinutes(31)), NOW)).isFalse();
        assertThat(policy.renewNow(null, NOW)).isFalse();
    }

    @Test
    void onlyAReauthSandboxAccountOnItsFirstAuthorizationIsSteered() {
        assertThat(HealthCheckPolicy.steeredToReauth(account("test", "reauth_anna", 1)))
                .isTrue();
        assertThat(HealthCheckPolicy.steeredToReauth(account("test", "reauth_anna", 2)))
                .isFalse();
        assertThat(HealthCheckPolicy.steeredToReauth(account("test", "anna", 1)))
                .isFalse();
        assertThat(HealthCheckPolicy.steeredToReauth(account("live", "reauth_anna", 1)))
                .isFalse();
    }

    @Test
    void theFirstCheckFollowsTheAuthorization() {
        HealthCheckPolicy policy = policy(0.0);

        assertThat(policy.afterAuthorization(account("test", "reauth_anna", 1), NOW, null))
                .isEqualTo(NOW.plusSeconds(20));
        assertThat(policy.afterAuthorization(account("test", "anna", 1), NOW, null))
                .isNull();
        assertThat(policy.afterAuthorization(account("live", "anna", 1), NOW, null))
                .isEqualTo(NOW.plus(Duration.ofHours(6)));
    }
}
