package dev.herald.usage.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.common.wire.UsageReservation;
import dev.herald.usage.model.ReservationEntity;
import dev.herald.usage.service.SettlementDecision.Verdict;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SettlementDecisionTest {
    private static final UsagePeriod MARCH =
            new UsagePeriod(Instant.parse("2026-03-01T00:00:00Z"), Instant.parse("2026-04-01T00:00:00Z"));
    private static final UsagePeriod APRIL =
            new UsagePeriod(Instant.parse("2026-04-01T00:00:00Z"), Instant.parse("2026-05-01T00:00:00Z"));
    private static final Instant NOW = Instant.parse("2026-03-20T12:00:00Z");
    /** No plan given: free, calendar months. */
    private static final SubscriptionState FREE = SubscriptionState.initial(Mode.LIVE);

    private static TargetCompletedEvent outcome(String status, Instant occurredAt, Instant completedAt) {
        return outcome(status, "rsv_1", occurredAt, completedAt);
    }

    private static TargetCompletedEvent outcome(
            String status, String reservationId, Instant occurredAt, Instant completedAt) {
        return new TargetCompletedEvent(
                "evt_1",
                TargetCompletedEvent.TYPE,
                occurredAt,
                "wsp_1",
                Mode.LIVE,
                "pst_1",
                "acc_1",
                reservationId,
                status,
                1,
                null,
                null,
                null,
                completedAt);
    }

    private static ReservationEntity reservation(String status) {
        ReservationEntity reservation = new ReservationEntity();
        reservation.workspaceId = "wsp_1";
        reservation.mode = Mode.LIVE.wireName();
        reservation.id = "rsv_1";
        reservation.meter = UsageReservation.METER_PUBLICATIONS;
        reservation.units = 1;
        reservation.status = status;
        reservation.periodStart = MARCH.start();
        reservation.periodEnd = MARCH.end();
        return reservation;
    }

    private static SettlementDecision decide(TargetCompletedEvent event, ReservationEntity reservation) {
        return SettlementDecision.of(event, reservation, FREE, NOW);
    }

    @Test
    void aPublishedTargetConsumesItsReservationInThePeriodOfCompletion() {
        ReservationEntity reserved = reservation(UsageReservation.STATUS_RESERVED);
        Instant inMarch = Instant.parse("2026-03-20T08:00:00Z");
        SettlementDecision sameMonth = decide(outcome(PostTarget.PUBLISHED, NOW, inMarch), reserved);
        assertThat(sameMonth).isEqualTo(new SettlementDecision(Verdict.CONSUME, inMarch, MARCH));
        assertThat(sameMonth.consumesInItsPeriod(reserved)).isTrue();

        Instant inApril = Instant.parse("2026-04-01T00:05:00Z");
        SettlementDecision nextMonth = decide(outcome(PostTarget.PUBLISHED, NOW, inApril), reserved);
        assertThat(nextMonth).isEqualTo(new SettlementDecision(Verdict.CONSUME, inApril, APRIL));
        // Two meter rows change: the transaction's work, not the one statement's.
        assertThat(nextMonth.consumesInItsPeriod(reserved)).isFalse();
        // Deciding changes nothing it was given.
        assertThat(reserved.status).isEqualTo(UsageReservation.STATUS_RESERVED);
    }

    @Test
    void theCompletionTimeIsTheEventsCompletedAtElseItsTimeElseNow() {
        ReservationEntity reserved = reservation(UsageReservation.STATUS_RESERVED);
        Instant occurred = Instant.parse("2026-04-02T00:00:00Z");
        assertThat(decide(outcome(PostTarget.PUBLISHED, occurred, null), reserved))
                .isEqualTo(new SettlementDecision(Verdict.CONSUME, occurred, APRIL));
        assertThat(decide(outcome(PostTarget.PUBLISHED, null, null), reserved))
                .isEqualTo(new SettlementDecision(Verdict.CONSUME, NOW, MARCH));
    }

    @Test
    void aFailedTargetReleasesItsReservation() {
        SettlementDecision decision =
                decide(outcome(PostTarget.FAILED, NOW, NOW), reservation(UsageReservation.STATUS_RESERVED));
        assertThat(decision.verdict()).isEqualTo(Verdict.RELEASE);
        assertThat(decision.consumedIn()).isNull();
        assertThat(decision.consumesInItsPeriod(reservation(UsageReservation.STATUS_RESERVED)))
                .isFalse();
    }

    @Test
    void anUncertainTargetKeepsItsReservationWithoutReadingIt() {
        TargetCompletedEvent uncertain = outcome(PostTarget.UNCERTAIN, NOW, NOW);
        assertThat(SettlementDecision.asked(uncertain)).isEqualTo(Verdict.KEEP);
        assertThat(decide(uncertain, null).verdict()).isEqualTo(Verdict.KEEP);
        // Even one naming no reservation: there is nothing to settle, so nothing to complain about.
        assertThat(SettlementDecision.asked(outcome(PostTarget.UNCERTAIN, null, NOW, NOW)))
                .isEqualTo(Verdict.KEEP);
    }

    @Test
    void aTargetHeldForItsAccountKeepsItsReservation() {
        TargetCompletedEvent held = outcome(PostTarget.QUEUED, NOW, null);
        assertThat(SettlementDecision.asked(held)).isEqualTo(Verdict.KEEP);
        assertThat(decide(held, null).verdict()).isEqualTo(Verdict.KEEP);
    }

    @Test
    void aRedeliveredOutcomeFindsItsReservationSettledAlreadyAndChangesNothing() {
        assertThat(decide(outcome(PostTarget.PUBLISHED, NOW, NOW), reservation(UsageReservation.STATUS_CONSUMED))
                        .verdict())
                .isEqualTo(Verdict.ALREADY_SETTLED);
        assertThat(decide(outcome(PostTarget.FAILED, NOW, NOW), reservation(UsageReservation.STATUS_RELEASED))
                        .verdict())
                .isEqualTo(Verdict.ALREADY_SETTLED);
    }

    @Test
    void aReservationSettledTheOtherWayStaysAsItIs() {
        SettlementDecision published =
                decide(outcome(PostTarget.PUBLISHED, NOW, NOW), reservation(UsageReservation.STATUS_RELEASED));
        assertThat(published.verdict()).isEqualTo(Verdict.SETTLED_OTHERWISE);
        assertThat(published.consumesInItsPeriod(reservation(UsageReservation.STATUS_RELEASED)))
                .isFalse();
        assertThat(decide(outcome(PostTarget.FAILED, NOW, NOW), reservation(UsageReservation.STATUS_CONSUMED))
                        .verdict())
                .isEqualTo(Verdict.SETTLED_OTHERWISE);
    }

    @Test
    void aReservationTheTenantDoesNotHaveSettlesNothing() {
        assertThat(decide(outcome(PostTarget.PUBLISHED, NOW, NOW), null).verdict())
                .isEqualTo(Verdict.NO_SUCH_RESERVATION);
        assertThat(decide(outcome(PostTarget.FAILED, NOW, NOW), null).verdict()).isEqualTo(Verdict.NO_SUCH_RESERVATION);
    }

    @Test
    void anOutcomeNamingNoReservationWorkspaceOrModeSettlesNothingWithoutARead() {
        TargetCompletedEvent full = outcome(PostTarget.PUBLISHED, NOW, NOW);
        assertThat(SettlementDecision.asked(full)).isEqualTo(Verdict.CONSUME);
        assertThat(SettlementDecision.asked(outcome(PostTarget.FAILED, NOW, NOW)))
                .isEqualTo(Verdict.RELEASE);
        TargetCompletedEvent noReservation = outcome(PostTarget.PUBLISHED, null, NOW, NOW);
        TargetCompletedEvent noWorkspace = new TargetCompletedEvent(
                "evt_1",
                full.type(),
                NOW,
                null,
                Mode.LIVE,
                "pst_1",
                "acc_1",
                "rsv_1",
                PostTarget.FAILED,
                1,
                null,
                null,
                null,
                NOW);
        TargetCompletedEvent noMode = new TargetCompletedEvent(
                "evt_1",
                full.type(),
                NOW,
                "wsp_1",
                null,
                "pst_1",
                "acc_1",
                "rsv_1",
                PostTarget.PUBLISHED,
                1,
                null,
                null,
                null,
                NOW);
        for (TargetCompletedEvent event : Arrays.asList(noReservation, noWorkspace, noMode)) {
            assertThat(SettlementDecision.asked(event)).isEqualTo(Verdict.NAMES_NO_RESERVATION);
            assertThat(decide(event, null).verdict()).isEqualTo(Verdict.NAMES_NO_RESERVATION);
        }
    }

    @Test
    void aStatusThatIsNoOutcomeSettlesNothing() {
        for (String status : Arrays.asList(null, PostTarget.CANCELED, "done")) {
            TargetCompletedEvent event = outcome(status, NOW, NOW);
            assertThat(SettlementDecision.asked(event)).as(status).isEqualTo(Verdict.UNKNOWN_STATUS);
            assertThat(decide(event, reservation(UsageReservation.STATUS_RESERVED))
                            .verdict())
                    .as(status)
                    .isEqualTo(Verdict.UNKNOWN_STATUS);
        }
    }
}
