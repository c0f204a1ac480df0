package dev.herald.posts.messaging;

import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.posting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.events.PostFinalizedEvent;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.tracing.TraceParents;
import dev.herald.common.wire.TargetError;
import dev.herald.common.wire.UsageReservation;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TopicReader;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A post's events end to end on the real broker: handover to delivery, outcomes, finalization, traces, cancellation.
 * About 380 lines: one life cycle whose cases share the topic readers and outcome senders; split, each part would
 * start the same readers again.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PostEventsTest {
    @Inject
    ObjectMapper mapper;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    private String post(String body) {
        return posting(workspace, Mode.TEST)
                .body(body)
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
    }

    @Test
    void anAcceptedPostIsHandedToDeliveryWithWhatTheWorkerNeeds() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "linkedin", "flaky_brand", null);
        String id = post("{\"text\":\"Now\",\"account_ids\":[\"" + account + "\"]}");

        List<ConsumerRecord<String, String>> records =
                TopicReader.recordsKeyed(Topics.POST_ACCEPTED, id, 1, Duration.ofSeconds(20));
        assertThat(records).hasSize(1);
        PostAcceptedEvent event = mapper.readValue(records.get(0).value(), PostAcceptedEvent.class);
        assertThat(event.type()).isEqualTo("post.accepted");
        assertThat(event.workspaceId()).isEqualTo(workspace);
        assertThat(event.mode()).isEqualTo(Mode.TEST);
        assertThat(event.post().id()).isEqualTo(id);
        assertThat(event.post().status()).isEqualTo("publishing");
        assertThat(event.deliveries()).singleElement().satisfies(delivery -> {
            assertThat(delivery.accountId()).isEqualTo(account);
            assertThat(delivery.accountUsername()).isEqualTo("flaky_brand");
            assertThat(delivery.reservationId()).isEqualTo(UsageReservation.publicationId(id, account));
        });
        as(workspace, Mode.TEST)
                .get("/posts/" + id)
                .then()
                .body("data.status", equalTo("publishing"))
                .body("data.targets[0].status", equalTo("publishing"));
    }

    @Test
    void aPostDueNowIsHandedOverByTheTransactionThatAcceptsIt() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        String id = posting(workspace, Mode.TEST)
                .body("{\"text\":\"Now\",\"account_ids\":[\"" + account + "\"]}")
                .post("/posts")
                .then()
                .statusCode(202)
                .body("data.status", equalTo("queued"))
                .body("data.targets[0].status", equalTo("queued"))
                .extract()
                .path("data.id");

        // Read as soon as the 202 arrived: no dispatcher tick in between, the acceptance itself wrote the hand-over.
        assertThat(PostsTestSupport.count("""
                select count(*) from posts where id = ? and status = 'publishing' and dispatched_at = created_at""", id)).isEqualTo(1);
        assertThat(PostsTestSupport.count(
                        "select count(*) from post_targets where post_id = ? and status = 'publishing'", id))
                .isEqualTo(1);
        assertThat(PostsTestSupport.count(
                        "select count(*) from outbox where message_key = ? and topic = ?", id, Topics.POST_ACCEPTED))
                .isEqualTo(1);
    }

    @Test
    void aScheduledPostStaysQueuedUntilItsTimeThenLeavesWithinASecond() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        // Well past the 5 s minimum lead: on a busy machine the request itself can take a few seconds to validate.
        Instant at = Instant.now().plusSeconds(12).truncatedTo(ChronoUnit.SECONDS);
        String id = post("{\"text\":\"Later\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\"" + at + "\"}");
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), at).toMillis() - 1500));
        as(workspace, Mode.TEST).get("/posts/" + id).then().body("data.status", equalTo("queued"));

        List<ConsumerRecord<String, String>> records =
                TopicReader.recordsKeyed(Topics.POST_ACCEPTED, id, 1, Duration.ofSeconds(20));
        assertThat(records).hasSize(1);
        PostAcceptedEvent event = mapper.readValue(records.get(0).value(), PostAcceptedEvent.class);
        // The dispatcher ran within a second of the scheduled time (the event's time is the hand-over).
        assertThat(event.occurredAt()).isBetween(at, at.plusSeconds(1));
    }

    @Test
    void outcomesSettleTargetsAndAMixedResultFinalizesThePostOnce() throws Exception {
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        String first = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", profile);
        String second = FakeUpstreams.addAccount(workspace, "test", "facebook", "fail_brand", null);
        String id = post("{\"text\":\"Mixed\",\"account_ids\":[\"" + first + "\",\"" + second + "\"]}");
        assertThat(TopicReader.recordsKeyed(Topics.POST_ACCEPTED, id, 1, Duration.ofSeconds(20)))
                .hasSize(1);

        Instant done = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TargetCompletedEvent published = new TargetCompletedEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                TargetCompletedEvent.TYPE,
                done,
                workspace,
                Mode.TEST,
                id,
                first,
                UsageReservation.publicationId(id, first),
                "published",
                2,
                "li_123",
                "https://linkedin.example/li_123",
                null,
                done);
        TargetCompletedEvent failed = new TargetCompletedEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                TargetCompletedEvent.TYPE,
                done,
                workspace,
                Mode.TEST,
                id,
                second,
                UsageReservation.publicationId(id, second),
                "failed",
                1,
                null,
                null,
                new TargetError("provider_error", "The provider refused the post.", false, Map.of()),
                done);
        send(id, published);
        send(id, published);
        send(id, failed);

        List<ConsumerRecord<String, String>> finals =
                TopicReader.recordsKeyed(Topics.POST_FINALIZED, id, 1, Duration.ofSeconds(20));
        assertThat(finals).hasSize(1);
        PostFinalizedEvent event = mapper.readValue(finals.get(0).value(), PostFinalizedEvent.class);
        assertThat(event.type()).isEqualTo("post.partially_failed");
        assertThat(event.post().status()).isEqualTo("partially_failed");
        as(workspace, Mode.TEST)
                .get("/posts/" + id)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("partially_failed"))
                .body("data.targets[0].status", equalTo("published"))
                .body("data.targets[0].attempts", equalTo(2))
                .body("data.targets[0].provider_post_id", equalTo("li_123"))
                .body("data.targets[0].url", equalTo("https://linkedin.example/li_123"))
                .body("data.targets[1].status", equalTo("failed"))
                .body("data.targets[1].error.code", equalTo("provider_error"))
                .body("data.targets[1].error.retryable", equalTo(false));
        // A redelivered outcome (same event id) changed nothing, and no second post.finalized was emitted.
        Thread.sleep(1000);
        assertThat(TopicReader.recordsKeyed(Topics.POST_FINALIZED, id, 2, Duration.ofSeconds(2)))
                .hasSize(1);
        long deadline = System.currentTimeMillis() + 10_000;
        while (!FakeUpstreams.holders(profile).isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(FakeUpstreams.holders(profile)).isEmpty();
    }

    @Test
    void everyTargetPublishedIsPublishedAndEveryTargetFailedIsFailed() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        String good = post("{\"text\":\"Good\",\"account_ids\":[\"" + account + "\"]}");
        String bad = post("{\"text\":\"Bad\",\"account_ids\":[\"" + account + "\"]}");
        Instant done = Instant.now();
        send(
                good,
                new TargetCompletedEvent(
                        ResourceIds.newId(IdPrefix.EVENT),
                        TargetCompletedEvent.TYPE,
                        done,
                        workspace,
                        Mode.TEST,
                        good,
                        account,
                        UsageReservation.publicationId(good, account),
                        "published",
                        1,
                        "p1",
                        null,
                        null,
                        done));
        send(
                bad,
                new TargetCompletedEvent(
                        ResourceIds.newId(IdPrefix.EVENT),
                        TargetCompletedEvent.TYPE,
                        done,
                        workspace,
                        Mode.TEST,
                        bad,
                        account,
                        UsageReservation.publicationId(bad, account),
                        "failed",
                        5,
                        null,
                        null,
                        new TargetError("provider_error", "No.", true, Map.of()),
                        done));
        assertThat(type(good)).isEqualTo("post.published");
        assertThat(type(bad)).isEqualTo("post.failed");
        // No url from the platform: the field is absent, not null.
        as(workspace, Mode.TEST)
                .get("/posts/" + good)
                .then()
                .body("data.targets[0].containsKey('url')", equalTo(false));
    }

    @Test
    void anUncertainOutcomeKeepsThePostPublishingUntilItIsSettled() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        String id = post("{\"text\":\"Unsure\",\"account_ids\":[\"" + account + "\"]}");
        Instant done = Instant.now();
        send(
                id,
                new TargetCompletedEvent(
                        ResourceIds.newId(IdPrefix.EVENT),
                        TargetCompletedEvent.TYPE,
                        done,
                        workspace,
                        Mode.TEST,
                        id,
                        account,
                        UsageReservation.publicationId(id, account),
                        "uncertain",
                        1,
                        null,
                        null,
                        null,
                        done));
        long deadline = System.currentTimeMillis() + 10_000;
        String status = "";
        while (!status.equals("uncertain") && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
            status = as(workspace, Mode.TEST)
                    .get("/posts/" + id)
                    .then()
                    .extract()
                    .path("data.targets[0].status");
        }
        assertThat(status).isEqualTo("uncertain");
        as(workspace, Mode.TEST).get("/posts/" + id).then().body("data.status", equalTo("publishing"));
        send(
                id,
                new TargetCompletedEvent(
                        ResourceIds.newId(IdPrefix.EVENT),
                        TargetCompletedEvent.TYPE,
                        done,
                        workspace,
                        Mode.TEST,
                        id,
                        account,
                        UsageReservation.publicationId(id, account),
                        "published",
                        1,
                        "p9",
                        null,
                        null,
                        done));
        assertThat(type(id)).isEqualTo("post.published");
    }

    @Test
    void aRequestsTraceGoesToDeliveryWithItsEventAndAnOutcomesTraceGoesOnToFinalization() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        String requestTrace = "0af7651916cd43dd8448eb211c80319c";
        String id = posting(workspace, Mode.TEST)
                .header("traceparent", "00-" + requestTrace + "-b7ad6b7169203331-00")
                .body("{\"text\":\"Traced\",\"account_ids\":[\"" + account + "\"]}")
                .post("/posts")
                .then()
                .statusCode(202)
                .header("x-trace-id", requestTrace)
                .extract()
                .path("data.id");

        List<ConsumerRecord<String, String>> accepted =
                TopicReader.recordsKeyed(Topics.POST_ACCEPTED, id, 1, Duration.ofSeconds(20));
        assertThat(accepted).hasSize(1);
        assertThat(TraceParents.traceId(TraceParents.header(accepted.get(0).headers())))
                .as("post.accepted's traceparent")
                .isEqualTo(requestTrace);

        String deliveryTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
        Instant done = Instant.now();
        send(
                id,
                new TargetCompletedEvent(
                        ResourceIds.newId(IdPrefix.EVENT),
                        TargetCompletedEvent.TYPE,
                        done,
                        workspace,
                        Mode.TEST,
                        id,
                        account,
                        UsageReservation.publicationId(id, account),
                        "published",
                        1,
                        "p1",
                        null,
                        null,
                        done),
                "00-" + deliveryTrace + "-00f067aa0ba902b7-00");
        List<ConsumerRecord<String, String>> finals =
                TopicReader.recordsKeyed(Topics.POST_FINALIZED, id, 1, Duration.ofSeconds(20));
        assertThat(finals).hasSize(1);
        assertThat(TraceParents.header(finals.get(0).headers()))
                .as("post.finalized's traceparent")
                .isEqualTo("00-" + deliveryTrace + "-00f067aa0ba902b7-00");
    }

    @Test
    void cancelingEmitsPostCanceled() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        String id = post("{\"text\":\"Never\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\""
                + Instant.now().plus(1, ChronoUnit.DAYS) + "\"}");
        as(workspace, Mode.TEST).delete("/posts/" + id).then().statusCode(200);
        assertThat(type(id)).isEqualTo("post.canceled");
    }

    private String type(String postId) throws Exception {
        List<ConsumerRecord<String, String>> finals =
                TopicReader.recordsKeyed(Topics.POST_FINALIZED, postId, 1, Duration.ofSeconds(20));
        assertThat(finals).hasSize(1);
        return mapper.readValue(finals.get(0).value(), PostFinalizedEvent.class).type();
    }

    private void send(String postId, TargetCompletedEvent event) throws Exception {
        send(postId, event, null);
    }

    /** With a {@code traceparent} header when given, as delivery-worker's outbox relay sends it. */
    private void send(String postId, TargetCompletedEvent event, String traceParent) throws Exception {
        assertThat(event.postId()).isEqualTo(postId);
        PostsTestSupport.sendOutcome(mapper, event, traceParent);
    }
}
