package dev.herald.delivery.service;

import static dev.herald.delivery.support.DeliveryTestSupport.accepted;
import static dev.herald.delivery.support.DeliveryTestSupport.completions;
import static dev.herald.delivery.support.DeliveryTestSupport.delivery;
import static dev.herald.delivery.support.DeliveryTestSupport.onlyCompletion;
import static dev.herald.delivery.support.DeliveryTestSupport.rows;
import static dev.herald.delivery.support.DeliveryTestSupport.sandboxPublications;
import static dev.herald.delivery.support.DeliveryTestSupport.scheduled;
import static dev.herald.delivery.support.DeliveryTestSupport.send;
import static dev.herald.delivery.support.DeliveryTestSupport.update;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.UsageReservation;
import dev.herald.delivery.messaging.TargetCompletedOutbox;
import dev.herald.delivery.model.DeliveryStatus;
import dev.herald.delivery.model.LeasedDelivery;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.SandboxPublisher;
import dev.herald.delivery.repository.DeliveryStatements;
import dev.herald.delivery.support.DeliveryTestSupport.Target;
import dev.herald.delivery.support.FakeUsageService;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The watchdog through the real worker, database and broker, with its default graces (N = 10 min, M = 15 min): rows are
 * written as a vanished worker or a late handover leaves them, and a look is made at once ({@code lookOnce}) rather than
 * at the next 30 s tick.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
class StuckDeliveryWatchdogTest {
    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @Inject
    StuckDeliveryWatchdog watchdog;

    @Inject
    DeliveryStatements deliveries;

    @BeforeEach
    void startFakes() {
        FakeUsageService.ensureStarted();
    }

    @Test
    void aLeasedDeliveryWhoseWorkerVanishedIsSettledFromWhatTheSandboxPublishedWithoutCallingItAgain()
            throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
        String token = PublishRequest.tokenOf(postId, accountId);
        String published = SandboxPublisher.providerPostIdOf(token);
        update(
                "insert into sandbox_publications (token, provider_post_id, publish_calls, created_at, last_called_at)"
                        + " values (?, ?, 1, now(), now())",
                token,
                published);
        insertLeasedLapsed(postId, accountId, 1, UUID.randomUUID(), "16 minutes");

        watchdog.lookOnce().await().atMost(Duration.ofSeconds(30));

        JsonNode settled = onlyCompletion(postId, accountId);
        assertThat(settled.get("status").asText()).isEqualTo("published");
        assertThat(settled.get("provider_post_id").asText()).isEqualTo(published);
        assertThat(rows("select publish_calls from sandbox_publications where token = ?", token))
                .singleElement()
                .satisfies(row -> assertThat(row).containsEntry("publish_calls", 1));
    }

    @Test
    void aLeasedDeliveryWhoseWorkerVanishedAndPublishedNothingFailsDeliveryTimeoutAndTheLateWorkerLoses()
            throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
        UUID vanishedLease = UUID.randomUUID();
        insertLeasedLapsed(postId, accountId, 1, vanishedLease, "16 minutes");
        assertLeftToTheWatchdog(postId, accountId, "publishing");

        watchdog.lookOnce().await().atMost(Duration.ofSeconds(30));

        JsonNode settled = onlyCompletion(postId, accountId);
        assertThat(settled.get("status").asText()).isEqualTo("failed");
        JsonNode error = settled.get("error");
        assertThat(error.get("code").asText()).isEqualTo("delivery_timeout");
        assertThat(error.get("retryable").asBoolean()).isTrue();
        assertThat(error.get("category").asText()).isEqualTo("platform");
        assertThat(error.get("action").asText()).isEqualTo("retry_later");
        assertThat(settled.get("reservation_id").asText()).isEqualTo(UsageReservation.publicationId(postId, accountId));
        assertThat(sandboxPublications(postId, accountId)).isEmpty();
        // The worker that held the lapsed lease comes back with its outcome: it changes nothing, sends nothing.
        LeasedDelivery late = leased(postId, accountId, vanishedLease);
        assertThat(deliveries
                        .startAttempt(late, Instant.now(), Instant.now().plusSeconds(60))
                        .await()
                        .atMost(Duration.ofSeconds(10)))
                .isEmpty();
        assertThat(deliveries
                        .complete(new DeliveryStatements.Completion(
                                late,
                                DeliveryStatus.PUBLISHED,
                                "sbx_late",
                                null,
                                null,
                                Instant.now(),
                                null,
                                TargetCompletedOutbox.finalEntry(
                                        late, DeliveryStatus.PUBLISHED, "sbx_late", null, null, Instant.now())))
                        .await()
                        .atMost(Duration.ofSeconds(10)))
                .isFalse();
        assertThat(delivery(postId, accountId)).containsEntry("status", "failed");
        assertThat(completions(postId, 2, Duration.ofSeconds(2))).hasSize(1);
    }

    @Test
    void aRetryNoWorkerClaimedPastTheDueGraceFailsWithoutAskingOrCallingThePlatform() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
        insertPending(postId, accountId, 0, "now() - interval '11 minutes'");
        assertLeftToTheWatchdog(postId, accountId, "pending");

        watchdog.lookOnce().await().atMost(Duration.ofSeconds(30));

        JsonNode settled = onlyCompletion(postId, accountId);
        assertThat(settled.get("status").asText()).isEqualTo("failed");
        assertThat(settled.get("error").get("code").asText()).isEqualTo("delivery_timeout");
        assertThat(settled.get("attempts").asInt()).isZero();
        assertThat(sandboxPublications(postId, accountId)).isEmpty();
    }

    @Test
    void aHandoverThatArrivesPastTheDueGraceFailsDeliveryTimeoutWithoutAnAttempt() throws Exception {
        Target target = Target.of(Platform.TIKTOK, "acme_late");
        PostAcceptedEvent event =
                scheduled(accepted(workspace, Mode.TEST, target), Instant.now().minus(Duration.ofMinutes(11)));
        String postId = event.post().id();

        send(event);

        JsonNode settled = onlyCompletion(postId, target.accountId());
        assertThat(settled.get("status").asText()).isEqualTo("failed");
        assertThat(settled.get("error").get("code").asText()).isEqualTo("delivery_timeout");
        assertThat(settled.get("attempts").asInt()).isZero();
        assertThat(sandboxPublications(postId, target.accountId())).isEmpty();
        assertThat(FakeUsageService.calls(target.reservationId(postId))).isEmpty();
    }

    @Test
    void aDeliveryTheWatchdogTookOverIsNeverAttemptedByTheClaimLoopEvenAfterItsLeaseLapses() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
        // A watchdog took it over, then died while settling it: its lease lapsed a minute ago, well within the claim
        // loop's window for an ordinary lease.
        // Written in an order the claim loop never sees claimable: held, marked overdue, then lapsed.
        insertLeased(postId, accountId, 0, UUID.randomUUID(), "now() + interval '1 minute'");
        update("update deliveries set overdue_at = now() - interval '2 minutes' where post_id = ?", postId);
        update("update deliveries set lease_until = now() - interval '1 minute' where post_id = ?", postId);

        assertLeftToTheWatchdog(postId, accountId, "publishing");
        watchdog.lookOnce().await().atMost(Duration.ofSeconds(30));

        JsonNode settled = onlyCompletion(postId, accountId);
        assertThat(settled.get("status").asText()).isEqualTo("failed");
        assertThat(settled.get("error").get("code").asText()).isEqualTo("delivery_timeout");
        assertThat(sandboxPublications(postId, accountId)).isEmpty();
    }

    @Test
    void healthySlowDeliveriesAreNotTouched() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String waiting = ResourceIds.newId(IdPrefix.ACCOUNT);
        String uploading = ResourceIds.newId(IdPrefix.ACCOUNT);
        // Due three hours ago: a TikTok status check (or a 15-minute Retry-After) planned ahead, and an upload whose
        // lease its worker keeps renewing.
        insertPending(postId, waiting, 2, "now() + interval '14 minutes'");
        insertLeased(postId, uploading, 1, UUID.randomUUID(), "now() + interval '40 seconds'");

        watchdog.lookOnce().await().atMost(Duration.ofSeconds(30));

        assertThat(delivery(postId, waiting)).containsEntry("status", "pending");
        assertThat(delivery(postId, uploading)).containsEntry("status", "publishing");
        assertThat(completions(postId, 1, Duration.ofSeconds(2))).isEmpty();
        update("delete from deliveries where post_id = ?", postId);
    }

    /**
     * The claim loop (every 200 ms) leaves the overdue delivery alone: a second later it is as written, and the sandbox
     * was not called. (The watchdog's own tick is 30 s away at most; a look it made meanwhile would settle it, which the
     * test then sees as well.)
     */
    private static void assertLeftToTheWatchdog(String postId, String accountId, String status) throws Exception {
        Thread.sleep(1000);
        Map<String, Object> row = delivery(postId, accountId);
        if (row.get("completed_at") == null) {
            assertThat(row).as("left to the watchdog").containsEntry("status", status);
        }
        assertThat(sandboxPublications(postId, accountId)).as("no publish call").isEmpty();
    }

    private void insertLeasedLapsed(String postId, String accountId, int attempts, UUID lease, String ago)
            throws Exception {
        insertLeased(postId, accountId, attempts, lease, "now() - interval '" + ago + "'");
    }

    private void insertLeased(String postId, String accountId, int attempts, UUID lease, String leaseUntil)
            throws Exception {
        update(
                """
                insert into deliveries (post_id, account_id, workspace_id, mode, platform, account_username, reservation_id,
                    text, platform_options, status, attempts, lease_token, lease_until, source_event_id, created_at,
                    updated_at, due_at)
                values (?, ?, ?, 'test', 'tiktok', 'acme', ?, 'Hello from Herald', '{}', 'publishing', ?, ?, %s, ?,
                    now() - interval '3 hours', now() - interval '3 hours', now() - interval '3 hours')""".formatted(leaseUntil),
                postId,
                accountId,
                workspace,
                UsageReservation.publicationId(postId, accountId),
                attempts,
                lease,
                ResourceIds.newId(IdPrefix.EVENT));
    }

    private void insertPending(String postId, String accountId, int attempts, String nextAttemptAt) throws Exception {
        update(
                """
                insert into deliveries (post_id, account_id, workspace_id, mode, platform, account_username, reservation_id,
                    text, platform_options, status, attempts, next_attempt_at, source_event_id, created_at, updated_at,
                    due_at)
                values (?, ?, ?, 'test', 'tiktok', 'acme', ?, 'Hello from Herald', '{}', 'pending', ?, %s, ?,
                    now() - interval '3 hours', now() - interval '3 hours', now() - interval '3 hours')""".formatted(nextAttemptAt),
                postId,
                accountId,
                workspace,
                UsageReservation.publicationId(postId, accountId),
                attempts,
                ResourceIds.newId(IdPrefix.EVENT));
    }

    /** The delivery as the worker that held {@code lease} knew it. */
    private LeasedDelivery leased(String postId, String accountId, UUID lease) {
        return new LeasedDelivery(
                postId,
                accountId,
                workspace,
                Mode.TEST,
                Platform.TIKTOK,
                "acme",
                UsageReservation.publicationId(postId, accountId),
                "Hello from Herald",
                List.of(),
                JsonNodeFactory.instance.objectNode(),
                1,
                0,
                lease,
                null,
                Instant.now(),
                null);
    }
}
