package dev.herald.delivery.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.model.ClaimWindow;
import dev.herald.delivery.model.DeliveryStatus;
import dev.herald.delivery.model.LeasedDelivery;
import dev.herald.delivery.provider.PublishOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StuckDeliveryRuleTest {
    private static final Instant NOW = Instant.parse("2026-11-28T09:00:00Z");
    private static final Duration N = Duration.ofMinutes(10);
    private static final Duration M = Duration.ofMinutes(15);
    private static final StuckDeliveryRule RULE = new StuckDeliveryRule(true, N, M);

    @Test
    void theClaimLoopTakesWhatIsLateByLessThanTheGracesAndTheWatchdogTheRest() {
        ClaimWindow onTime = RULE.onTime(NOW);
        ClaimWindow overdue = RULE.overdue(NOW);

        assertThat(onTime).isEqualTo(new ClaimWindow(NOW.minus(N), NOW, NOW.minus(M), NOW, false));
        assertThat(overdue)
                .isEqualTo(new ClaimWindow(
                        ClaimWindow.BEGINNING, NOW.minus(N), ClaimWindow.BEGINNING, NOW.minus(M), true));
        // Adjacent half-open windows: a row is in exactly one of them.
        assertThat(overdue.pendingUpTo()).isEqualTo(onTime.pendingAfter());
        assertThat(overdue.lapsedUpTo()).isEqualTo(onTime.lapsedAfter());
    }

    @Test
    void withTheWatchdogOffTheClaimLoopTakesEverythingDueAndNothingIsLateAtIntake() {
        StuckDeliveryRule off = new StuckDeliveryRule(false, N, M);

        assertThat(off.onTime(NOW)).isEqualTo(ClaimWindow.upTo(NOW));
        assertThat(off.lateAtIntake(delivery(0, NOW.minus(Duration.ofHours(3)), null), NOW))
                .isFalse();
    }

    @Test
    void aHandoverIsLateOnlyMoreThanTheDueGraceAfterThePostFellDue() {
        assertThat(RULE.lateAtIntake(delivery(0, NOW.minus(N).minusSeconds(1), null), NOW))
                .isTrue();
        assertThat(RULE.lateAtIntake(delivery(0, NOW.minus(N).plusSeconds(1), null), NOW))
                .isFalse();
    }

    @Test
    void aHeldAccountsLateHandoverWaitsForItsReconnectionNotForTheWatchdog() {
        LeasedDelivery held = delivery(0, NOW.minus(Duration.ofHours(3)), new LeasedDelivery.HeldAccount(null));

        assertThat(RULE.lateAtIntake(held, NOW)).isFalse();
    }

    @Test
    void onlyADeliveryThatEverCalledItsPlatformIsLookedUpThere() {
        assertThat(StuckDeliveryRule.asksPlatform(delivery(0, NOW, null))).isFalse();
        assertThat(StuckDeliveryRule.asksPlatform(delivery(2, NOW, null))).isTrue();
    }

    @Test
    void aDeliveryThatNeverCalledItsPlatformFailsDeliveryTimeoutRetryable() {
        StuckDeliveryRule.Settlement settled = StuckDeliveryRule.settle(delivery(0, NOW, null), null);

        assertThat(settled.status()).isEqualTo(DeliveryStatus.FAILED);
        assertTimeout(settled.error());
        assertThat(settled.error().message()).contains("no call reached TikTok");
    }

    @Test
    void aPublicationThePlatformShowsSettlesItPublished() {
        StuckDeliveryRule.Settlement settled = StuckDeliveryRule.settle(
                delivery(1, NOW, null), PublishOutcome.published("sbx_1", "https://sandbox.herald.invalid/tiktok/1"));

        assertThat(settled)
                .isEqualTo(new StuckDeliveryRule.Settlement(
                        DeliveryStatus.PUBLISHED, "sbx_1", "https://sandbox.herald.invalid/tiktok/1", null));
    }

    @Test
    void nothingPublishedFailsDeliveryTimeoutInsteadOfThePlatformsReconciliationError() {
        PublishOutcome nothing =
                PublishOutcome.failed(new TargetError(TargetError.PROVIDER_ERROR, "nothing", false, Map.of()));

        StuckDeliveryRule.Settlement settled = StuckDeliveryRule.settle(delivery(1, NOW, null), nothing);

        assertThat(settled.status()).isEqualTo(DeliveryStatus.FAILED);
        assertTimeout(settled.error());
    }

    @Test
    void aPlatformThatCannotSayNowLeavesItUncertainForTheReconciler() {
        LeasedDelivery delivery = delivery(1, NOW, null);

        assertThat(StuckDeliveryRule.settle(delivery, PublishOutcome.later(Duration.ZERO))
                        .status())
                .isEqualTo(DeliveryStatus.UNCERTAIN);
        assertThat(StuckDeliveryRule.settle(
                                delivery,
                                PublishOutcome.unknown(
                                        new TargetError(TargetError.PROVIDER_ERROR, "no answer", true, Map.of())))
                        .status())
                .isEqualTo(DeliveryStatus.UNCERTAIN);
        assertThat(StuckDeliveryRule.settle(
                                delivery,
                                PublishOutcome.failed(new TargetError(
                                        TargetError.ACCOUNT_REAUTH_REQUIRED, "reconnect", false, Map.of())))
                        .status())
                .isEqualTo(DeliveryStatus.UNCERTAIN);
    }

    @Test
    void aPublisherThatCannotLookKeepsPublicationUnconfirmedRatherThanInviteASecondPost() {
        TargetError unconfirmed = new TargetError(TargetError.PUBLICATION_UNCONFIRMED, "cannot ask", false, Map.of());

        StuckDeliveryRule.Settlement settled =
                StuckDeliveryRule.settle(delivery(1, NOW, null), PublishOutcome.failed(unconfirmed));

        assertThat(settled.status()).isEqualTo(DeliveryStatus.FAILED);
        assertThat(settled.error()).isEqualTo(unconfirmed);
    }

    private static void assertTimeout(TargetError error) {
        assertThat(error.code()).isEqualTo(TargetError.DELIVERY_TIMEOUT);
        assertThat(error.retryable()).isTrue();
        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_PLATFORM);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_RETRY_LATER);
        assertThat(error.details()).containsEntry("platform", "tiktok");
    }

    private static LeasedDelivery delivery(int attempts, Instant dueAt, LeasedDelivery.HeldAccount held) {
        return new LeasedDelivery(
                "pst_1",
                "acc_1",
                "wsp_1",
                Mode.TEST,
                Platform.TIKTOK,
                "acme",
                "rsv_1",
                "Hello",
                List.of(),
                JsonNodeFactory.instance.objectNode(),
                attempts,
                0,
                UUID.randomUUID(),
                null,
                dueAt,
                held);
    }
}
