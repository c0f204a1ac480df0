package dev.herald.delivery.service;

import static dev.herald.delivery.support.DeliveryTestSupport.completions;
import static dev.herald.delivery.support.DeliveryTestSupport.delivery;
import static dev.herald.delivery.support.DeliveryTestSupport.onlyCompletion;
import static dev.herald.delivery.support.DeliveryTestSupport.rows;
import static dev.herald.delivery.support.DeliveryTestSupport.sandboxPublications;
import static dev.herald.delivery.support.DeliveryTestSupport.update;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.TargetError;
import dev.herald.common.wire.UsageReservation;
import dev.herald.delivery.messaging.TargetCompletedOutbox;
import dev.herald.delivery.model.LeasedDelivery;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.SandboxPublisher;
import dev.herald.delivery.repository.DeliveryStatements;
import dev.herald.delivery.support.DeliveryTestSupport;
import dev.herald.delivery.support.DeliveryTestSupport.Target;
import dev.herald.delivery.support.FakeUsageService;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The claim loop and its leases. A worker that dies mid-delivery leaves a {@code publishing} row whose lease
 * lapses; the claim loop of any worker finishes it, once, and the sandbox's idempotency token keeps the repeated
 * provider call from publishing twice (those rows are written here as a dead worker would have left them).
 * Claims and lease-guarded writes are also made directly, as several replicas would make them, on rows due a day
 * from now, which the running worker's own claim loop never sees (the claims here ask "as of" later).
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ClaimLoopTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    DeliveryStatements deliveries;

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @BeforeEach
    void startFakes() {
        FakeUsageService.ensureStarted();
    }

    @Test
    void aDeliveryWhoseWorkerDiedDuringTheProviderCallIsCompletedOnceWithoutASecondPublication() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
        String token = PublishRequest.tokenOf(postId, accountId);
        String publishedBefore = SandboxPublisher.providerPostIdOf(token);
        // The dead worker counted its attempt and the sandbox published, but the outcome was never recorded. The
        // sandbox's row goes first: the claim loop may take the delivery as soon as it exists.
        update(
                "insert into sandbox_publications (token, provider_post_id, publish_calls, created_at, last_called_at)"
                        + " values (?, ?, 1, now(), now())",
                token,
                publishedBefore);
        insertAbandoned(postId, accountId, 1, "interval '1 minute'");

        JsonNode completed = onlyCompletion(postId, accountId);

        assertThat(completed.get("status").asText()).isEqualTo("published");
        assertThat(completed.get("provider_post_id").asText()).isEqualTo(publishedBefore);
        assertThat(completed.get("url").asText()).isEqualTo("https://sandbox.herald.invalid/tiktok/" + publishedBefore);
        assertThat(completed.get("attempts").asInt()).isEqualTo(2);
        // The provider was called again (the worker could not know what the first call did), and answered the
        // same post: one publication.
        assertThat(sandboxPublications(postId, accountId))
                .singleElement()
                .satisfies(publication -> assertThat(publication)
                        .containsEntry("publish_calls", 2)
                        .containsEntry("provider_post_id", publishedBefore));
        assertThat(delivery(postId, accountId))
                .containsEntry("status", "published")
                .containsEntry("lease_token", null);
    }

    @Test
    void aDeliveryWhoseWorkerDiedBeforeCallingTheProviderIsPublished() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
        insertAbandoned(postId, accountId, 0, "interval '1 second'");

        JsonNode completed = onlyCompletion(postId, accountId);

        assertThat(completed.get("status").asText()).isEqualTo("published");
        assertThat(completed.get("attempts").asInt()).isEqualTo(1);
        assertThat(sandboxPublications(postId, accountId))
                .singleElement()
                .satisfies(publication -> assertThat(publication).containsEntry("publish_calls", 1));
    }

    @Test
    void aDeliveryInterruptedAfterItsLastAttemptEndsUncertainWithoutAnotherCall() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
        // Five attempts, then the one call allowed to learn what the fifth did, which was interrupted too.
        insertAbandoned(postId, accountId, 6, "interval '1 minute'");

        JsonNode completed = onlyCompletion(postId, accountId);

        assertThat(completed.get("status").asText()).isEqualTo("uncertain");
        assertThat(completed.get("attempts").asInt()).isEqualTo(6);
        assertThat(completed.get("error").get("code").asText()).isEqualTo("attempts_exhausted");
        assertThat(completed.get("error").get("retryable").asBoolean()).isFalse();
        assertThat(sandboxPublications(postId, accountId)).isEmpty();
        assertThat(FakeUsageService.calls(UsageReservation.publicationId(postId, accountId)))
                .isEmpty();
        assertThat(delivery(postId, accountId)).containsEntry("status", "uncertain");
    }

    @Test
    void aDeliveryWhoseLeaseHasNotLapsedIsLeftToItsWorker() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
        insertAbandoned(postId, accountId, 1, "interval '-1 hour'");
        try {
            assertThat(completions(postId, 1, Duration.ofSeconds(3))).isEmpty();
            assertThat(delivery(postId, accountId))
                    .containsEntry("status", "publishing")
                    .containsEntry("attempts", 1);
            assertThat(sandboxPublications(postId, accountId)).isEmpty();
        } finally {
            update("delete from deliveries where post_id = ?", postId);
        }
    }

    /** A {@code publishing} row whose lease ended {@code leaseAgo} ago (a negative interval: not yet). */
    private void insertAbandoned(String postId, String accountId, int attempts, String leaseAgo) throws Exception {
        update(
                """
                insert into deliveries (post_id, account_id, workspace_id, mode, platform, account_username, reservation_id,
                    text, platform_options, status, attempts, lease_token, lease_until, source_event_id, created_at, updated_at)
                values (?, ?, ?, 'test', 'tiktok', 'acme_tiktok', ?, 'Hello from Herald', '{}', 'publishing', ?,
                    gen_random_uuid(), now() - %s, ?, now(), now())""".formatted(leaseAgo),
                postId,
                accountId,
                workspace,
                UsageReservation.publicationId(postId, accountId),
                attempts,
                ResourceIds.newId(IdPrefix.EVENT));
    }

    @Test
    void concurrentClaimsNeverTakeTheSameDelivery() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        for (int i = 0; i < 40; i++) {
            insertPendingTomorrow(postId, ResourceIds.newId(IdPrefix.ACCOUNT));
        }
        try {
            Instant later = Instant.now().plus(Duration.ofDays(2));
            List<Uni<List<LeasedDelivery>>> claims = new ArrayList<>();
            for (int worker = 0; worker < 4; worker++) {
                claims.add(deliveries.claimDue(later, later.plus(Duration.ofDays(1)), 15));
            }
            List<List<LeasedDelivery>> claimed =
                    Uni.join().all(claims).andFailFast().await().atMost(WAIT);

            Set<String> accounts = new HashSet<>();
            Set<UUID> tokens = new HashSet<>();
            int total = 0;
            for (List<LeasedDelivery> batch : claimed) {
                assertThat(batch.size()).isLessThanOrEqualTo(15);
                for (LeasedDelivery delivery : batch) {
                    if (delivery.postId().equals(postId)) {
                        total++;
                        accounts.add(delivery.accountId());
                        tokens.add(delivery.leaseToken());
                    }
                }
            }
            assertThat(total).as("claims of this post's deliveries").isEqualTo(40);
            assertThat(accounts).as("distinct deliveries claimed").hasSize(40);
            assertThat(tokens).as("distinct lease tokens").hasSize(40);
        } finally {
            update("delete from deliveries where post_id = ?", postId);
        }
    }

    @Test
    void aWorkerWhoseLeaseWasTakenOverWritesNothing() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
        insertPendingTomorrow(postId, accountId);
        try {
            Instant later = Instant.now().plus(Duration.ofDays(2));
            LeasedDelivery first = claimOnly(postId, later);
            // The first worker's lease lapses; a second worker claims the row with a new token.
            LeasedDelivery second = claimOnly(postId, later.plus(Duration.ofDays(2)));
            assertThat(second.leaseToken()).isNotEqualTo(first.leaseToken());

            TargetError error = new TargetError(TargetError.PROVIDER_ERROR, "late", true, Map.of());
            assertThat(deliveries
                            .startAttempt(first, later, later.plusSeconds(60))
                            .await()
                            .atMost(WAIT))
                    .isEmpty();
            assertThat(deliveries
                            .scheduleRetry(first, error, later, later)
                            .await()
                            .atMost(WAIT))
                    .isFalse();
            assertThat(deliveries.defer(first, 1, false, later, later).await().atMost(WAIT))
                    .isFalse();
            OutboxWriter.Entry lateOutcome = completed(first, "published");
            assertThat(deliveries
                            .complete(new DeliveryStatements.Completion(
                                    first, "published", "sbx_x", null, null, later, null, lateOutcome))
                            .await()
                            .atMost(WAIT))
                    .isFalse();
            assertThat(rows("select * from outbox where event_id = ?", lateOutcome.eventId()))
                    .as("a lost lease writes no target.completed either")
                    .isEmpty();

            assertThat(deliveries
                            .startAttempt(second, later, later.plusSeconds(60))
                            .await()
                            .atMost(WAIT))
                    .contains(1);
            OutboxWriter.Entry outcome = completed(second, "published");
            assertThat(deliveries
                            .complete(new DeliveryStatements.Completion(
                                    second,
                                    "published",
                                    "sbx_y",
                                    "https://sandbox.herald.invalid/tiktok/sbx_y",
                                    null,
                                    later,
                                    null,
                                    outcome))
                            .await()
                            .atMost(WAIT))
                    .isTrue();
            assertThat(rows(
                            "select topic, message_key, payload->>'status' as status from outbox where event_id = ?",
                            outcome.eventId()))
                    .containsExactly(Map.of("topic", "target.completed", "message_key", postId, "status", "published"));
            var row = delivery(postId, accountId);
            assertThat(row)
                    .containsEntry("status", "published")
                    .containsEntry("provider_post_id", "sbx_y")
                    .containsEntry("attempts", 1)
                    .containsEntry("lease_token", null);
        } finally {
            update("delete from deliveries where post_id = ?", postId);
        }
    }

    @Test
    void concurrentStartsAndCompletionsGoTogetherAndEachGetsItsOwnAnswer() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        for (int i = 0; i < 20; i++) {
            insertPendingTomorrow(postId, ResourceIds.newId(IdPrefix.ACCOUNT));
        }
        try {
            Instant later = Instant.now().plus(Duration.ofDays(2));
            List<LeasedDelivery> claimed = claimedOf(postId, later);
            assertThat(claimed).hasSize(20);
            // Every third one as a worker whose lease was taken over would hold it: its writes must change nothing.
            List<LeasedDelivery> held = new ArrayList<>();
            for (int i = 0; i < claimed.size(); i++) {
                held.add(i % 3 == 0 ? withOtherLease(claimed.get(i)) : claimed.get(i));
            }

            List<Uni<Optional<Integer>>> starts = new ArrayList<>();
            for (LeasedDelivery delivery : held) {
                starts.add(deliveries.startAttempt(delivery, later, later.plusSeconds(60)));
            }
            List<Optional<Integer>> started =
                    Uni.join().all(starts).andFailFast().await().atMost(WAIT);
            List<OutboxWriter.Entry> outcomes = new ArrayList<>();
            List<Uni<Boolean>> completions = new ArrayList<>();
            for (LeasedDelivery delivery : held) {
                OutboxWriter.Entry outcome = completed(delivery, "published");
                outcomes.add(outcome);
                completions.add(deliveries.complete(new DeliveryStatements.Completion(
                        delivery, "published", "sbx_" + delivery.accountId(), null, null, later, null, outcome)));
            }
            List<Boolean> completed =
                    Uni.join().all(completions).andFailFast().await().atMost(WAIT);

            for (int i = 0; i < held.size(); i++) {
                boolean lost = i % 3 == 0;
                LeasedDelivery delivery = held.get(i);
                assertThat(started.get(i)).isEqualTo(lost ? Optional.empty() : Optional.of(1));
                assertThat(completed.get(i)).isEqualTo(!lost);
                assertThat(delivery(postId, delivery.accountId()))
                        .containsEntry("status", lost ? "publishing" : "published")
                        .containsEntry("provider_post_id", lost ? null : "sbx_" + delivery.accountId())
                        .containsEntry("attempts", lost ? 0 : 1);
                assertThat(rows(
                                "select * from outbox where event_id = ?",
                                outcomes.get(i).eventId()))
                        .hasSize(lost ? 0 : 1);
            }
        } finally {
            update("delete from deliveries where post_id = ?", postId);
        }
    }

    @Test
    void anIntakeBeyondTheWorkersFreePlacesLeavesTheRestPendingForTheClaimLoop() throws Exception {
        // Due tomorrow and taken in as of then, so that the running claim loop leaves the pending rows to this test.
        Instant tomorrow = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.MILLIS);
        PostAcceptedEvent event = DeliveryTestSupport.scheduled(
                DeliveryTestSupport.accepted(
                        workspace,
                        Mode.TEST,
                        Target.of(Platform.TIKTOK, "placed_1"),
                        Target.of(Platform.TIKTOK, "placed_2"),
                        Target.of(Platform.TIKTOK, "placed_3")),
                tomorrow);
        String postId = event.post().id();
        try {
            List<LeasedDelivery> started = deliveries
                    .insertLeased(
                            List.of(new DeliveryStatements.HandedOver(event, null)),
                            1,
                            tomorrow,
                            tomorrow.plusSeconds(60))
                    .await()
                    .atMost(WAIT);

            assertThat(started).singleElement().satisfies(delivery -> {
                assertThat(delivery.accountId())
                        .isEqualTo(event.deliveries().get(0).accountId());
                assertThat(delivery.leaseToken()).isNotNull();
            });
            assertThat(pendingSince(postId, tomorrow))
                    .containsExactly(
                            Map.of("status", "pending", "unleased", true, "due", true),
                            Map.of("status", "pending", "unleased", true, "due", true),
                            Map.of("status", "publishing", "unleased", false, "due", false));
            List<LeasedDelivery> claimed = claimedOf(postId, tomorrow.plusSeconds(1));
            assertThat(claimed)
                    .extracting(LeasedDelivery::accountId)
                    .containsExactlyInAnyOrder(
                            event.deliveries().get(1).accountId(),
                            event.deliveries().get(2).accountId());
        } finally {
            update("delete from deliveries where post_id = ?", postId);
        }
    }

    @Test
    void aLateHandoverLeftPendingIsDueWhenItsPostWasAndAHeldAccountsIsDueNow() throws Exception {
        Instant tomorrow = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.MILLIS);
        Instant hourLate = tomorrow.plus(Duration.ofHours(1));
        PostAcceptedEvent event = DeliveryTestSupport.scheduled(
                DeliveryTestSupport.accepted(
                        workspace,
                        Mode.TEST,
                        Target.of(Platform.TIKTOK, "late_1"),
                        Target.of(Platform.TIKTOK, "late_held")),
                tomorrow);
        String postId = event.post().id();
        String heldAccount = event.deliveries().get(1).accountId();
        update(
                "insert into held_accounts (account_id, workspace_id, mode, since) values (?, ?, 'test', now())",
                heldAccount,
                workspace);
        try {
            assertThat(deliveries
                            .insertLeased(
                                    List.of(new DeliveryStatements.HandedOver(event, null)),
                                    0,
                                    hourLate,
                                    hourLate.plusSeconds(60))
                            .await()
                            .atMost(WAIT))
                    .isEmpty();
            // The late one where the watchdog looks (pending far past its due time), the held one for the claim loop,
            // whose attempt holds it.
            String lateAccount = event.deliveries().get(0).accountId();
            assertThat(nextAttemptAt(postId, lateAccount)).isEqualTo(tomorrow);
            assertThat(nextAttemptAt(postId, heldAccount)).isEqualTo(hourLate);
            assertThat(pendingSince(postId, tomorrow))
                    .extracting(row -> row.get("status"))
                    .containsOnly("pending");
        } finally {
            update("delete from deliveries where post_id = ?", postId);
            update("delete from held_accounts where account_id = ?", heldAccount);
        }
    }

    private static Instant nextAttemptAt(String postId, String accountId) throws Exception {
        java.sql.Timestamp at = (java.sql.Timestamp)
                rows("select next_attempt_at from deliveries where post_id = ? and account_id = ?", postId, accountId)
                        .get(0)
                        .get("next_attempt_at");
        return at.toInstant();
    }

    /** The post's rows by status: status, whether unleased, whether due at {@code at}. */
    private static List<Map<String, Object>> pendingSince(String postId, Instant at) throws Exception {
        return rows(
                "select status, lease_token is null as unleased, coalesce(next_attempt_at = ?, false) as due"
                        + " from deliveries where post_id = ? order by status, account_id",
                java.sql.Timestamp.from(at),
                postId);
    }

    private static LeasedDelivery withOtherLease(LeasedDelivery delivery) {
        return new LeasedDelivery(
                delivery.postId(),
                delivery.accountId(),
                delivery.workspaceId(),
                delivery.mode(),
                delivery.platform(),
                delivery.accountUsername(),
                delivery.reservationId(),
                delivery.text(),
                delivery.media(),
                delivery.platformOptions(),
                delivery.attempts(),
                delivery.deferrals(),
                UUID.randomUUID(),
                delivery.traceParent(),
                delivery.dueAt(),
                delivery.heldAccount());
    }

    private static OutboxWriter.Entry completed(LeasedDelivery delivery, String status) {
        Instant now = Instant.now();
        return TargetCompletedOutbox.entry(
                new TargetCompletedEvent(
                        ResourceIds.newId(IdPrefix.EVENT),
                        TargetCompletedEvent.TYPE,
                        now,
                        delivery.workspaceId(),
                        delivery.mode(),
                        delivery.postId(),
                        delivery.accountId(),
                        delivery.reservationId(),
                        status,
                        1,
                        null,
                        null,
                        null,
                        now),
                delivery.traceParent());
    }

    /** Claims what is due at {@code asOf} (leased for a day), answering the deliveries of {@code postId}. */
    private List<LeasedDelivery> claimedOf(String postId, Instant asOf) {
        return deliveries.claimDue(asOf, asOf.plus(Duration.ofDays(1)), 100).await().atMost(WAIT).stream()
                .filter(delivery -> delivery.postId().equals(postId))
                .toList();
    }

    private LeasedDelivery claimOnly(String postId, Instant asOf) {
        List<LeasedDelivery> claimed = claimedOf(postId, asOf);
        assertThat(claimed).hasSize(1);
        return claimed.get(0);
    }

    private static void insertPendingTomorrow(String postId, String accountId) throws Exception {
        update("""
                insert into deliveries (post_id, account_id, workspace_id, mode, platform, account_username, reservation_id,
                    text, platform_options, status, next_attempt_at, source_event_id, created_at, updated_at)
                values (?, ?, 'ws_000000000000000000000abc', 'test', 'tiktok', 'acme', ?, 'Hello', '{}', 'pending',
                    now() + interval '1 day', 'evt_000000000000000000000abc', now(), now())""", postId, accountId, postId + "-" + accountId);
    }
}
