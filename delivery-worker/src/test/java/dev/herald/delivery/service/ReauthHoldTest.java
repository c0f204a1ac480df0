package dev.herald.delivery.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.wire.TargetError;
import dev.herald.delivery.model.LeasedDelivery.HeldAccount;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReauthHoldTest {
    private static final ReauthHold HOLD = new ReauthHold(Duration.ofHours(24), Duration.ofMinutes(5));
    private static final Instant DUE = Instant.parse("2026-11-28T09:00:00Z");
    private static final String ACCOUNT = "acc_01";
    private static final HeldAccount HELD = new HeldAccount("https://herald.example/connect/reconnect/tok");

    @Test
    void aTargetOfAHeldAccountWaitsBeforeTheDeadlineAndIsLookedAtAgainAfterTheRecheck() {
        Instant now = DUE.plus(Duration.ofHours(3));

        ReauthHold.Decision decision = HOLD.decide(DUE, now, ACCOUNT, HELD);

        assertThat(decision.proceeds()).isFalse();
        assertThat(decision.waits()).isTrue();
        assertThat(decision.waitUntil()).isEqualTo(now.plus(Duration.ofMinutes(5)));
        assertThat(decision.error()).isNull();
    }

    @Test
    void theLastLookBeforeTheDeadlineIsAtTheDeadline() {
        Instant deadline = DUE.plus(Duration.ofHours(24));

        ReauthHold.Decision decision = HOLD.decide(DUE, deadline.minus(Duration.ofMinutes(2)), ACCOUNT, HELD);

        assertThat(decision.waitUntil()).isEqualTo(deadline);
    }

    @Test
    void aTargetWhoseAccountWasReconnectedProceeds() {
        ReauthHold.Decision decision = HOLD.decide(DUE, DUE.plus(Duration.ofHours(30)), ACCOUNT, null);

        assertThat(decision.proceeds()).isTrue();
        assertThat(decision.waits()).isFalse();
        assertThat(decision.error()).isNull();
    }

    @Test
    void atTheDeadlineTheTargetFailsWithAccountReauthRequiredAndTheReconnectLink() {
        ReauthHold.Decision decision = HOLD.decide(DUE, DUE.plus(Duration.ofHours(24)), ACCOUNT, HELD);

        assertThat(decision.proceeds()).isFalse();
        assertThat(decision.waits()).isFalse();
        TargetError error = decision.error();
        assertThat(error.code()).isEqualTo(TargetError.ACCOUNT_REAUTH_REQUIRED);
        assertThat(error.retryable()).isFalse();
        assertThat(error.details())
                .containsEntry("account_id", ACCOUNT)
                .containsEntry("reconnect_url", HELD.reconnectUrl());
    }

    @Test
    void aHoldWithoutAKnownLinkFailsWithTheAccountOnly() {
        ReauthHold.Decision decision = HOLD.decide(DUE, DUE.plus(Duration.ofDays(2)), ACCOUNT, new HeldAccount(null));

        assertThat(decision.error().details()).containsOnlyKeys("account_id");
    }
}
