package dev.herald.usage.messaging;

import static dev.herald.usage.support.UsageTestSupport.as;
import static dev.herald.usage.support.UsageTestSupport.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostFinalizedEvent;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.TargetError;
import dev.herald.common.wire.UsageReservation;
import dev.herald.testing.RealInfrastructure;
import dev.herald.usage.support.MutableClock;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.hibernate.reactive.mutiny.Mutiny;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Delivery outcomes arrive over the real broker and settle publication reservations: published targets consume
 * in the period of completion, failed ones release, uncertain ones keep, canceled posts release all; every
 * event is applied once however often it is delivered.
 */
@QuarkusTest
@QuarkusTestResource(value = RealInfrastructure.class, initArgs = @ResourceArg(name = "database", value = "usage_test"))
class DeliveryOutcomeEventsTest {
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
    private static final String MARCH = "2026-03-01T00:00:00Z";
    private static final String APRIL = "2026-04-01T00:00:00Z";
    private static KafkaProducer<String, String> producer;

    @Inject
    MutableClock clock;

    @Inject
    ObjectMapper mapper;

    @Inject
    Mutiny.SessionFactory sessionFactory;

    private String workspace;
    private String post;

    @BeforeAll
    static void producer() {
        producer = new KafkaProducer<>(Map.of(
                "bootstrap.servers",
                RealInfrastructure.bootstrapServers(),
                "key.serializer",
                StringSerializer.class.getName(),
                "value.serializer",
                StringSerializer.class.getName()));
    }

    @AfterAll
    static void closeProducer() {
        producer.close();
    }

    @BeforeEach
    void newWorkspace() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        post = ResourceIds.newId(IdPrefix.POST);
        clock.set(NOW);
    }

    @AfterEach
    void realTime() {
        clock.reset();
    }

    private String reserveTargets(Mode mode, String... accounts) {
        List<String> items = new ArrayList<>();
        for (String account : accounts) {
            items.add("{\"reservation_id\":\"" + UsageReservation.publicationId(post, account)
                    + "\",\"meter\":\"publications\",\"units\":1}");
        }
        as(workspace, mode)
                .body("{\"reservations\":[" + String.join(",", items) + "]}")
                .post("/internal/reservations/batch")
                .then()
                .statusCode(201);
        return UsageReservation.publicationId(post, accounts[0]);
    }

    private TargetCompletedEvent completed(Mode mode, String account, String status, Instant completedAt) {
        TargetError error = PostTarget.FAILED.equals(status)
                ? new TargetError(TargetError.PROVIDER_ERROR, "The platform refused the video.", false, Map.of())
                : null;
        return new TargetCompletedEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                TargetCompletedEvent.TYPE,
                completedAt,
                workspace,
                mode,
                post,
                account,
                UsageReservation.publicationId(post, account),
                status,
                1,
                PostTarget.PUBLISHED.equals(status) ? "v_123" : null,
                null,
                error,
                completedAt);
    }

    private PostFinalizedEvent canceled(Mode mode, String... accounts) {
        List<PostTarget> targets = new ArrayList<>();
        for (String account : accounts) {
            targets.add(new PostTarget(
                    account, Platform.TIKTOK, null, PostTarget.CANCELED, 0, null, null, null, null, NOW));
        }
        Post canceled = new Post(
                post,
                "Hello",
                Post.CANCELED,
                mode,
                null,
                null,
                mapper.createObjectNode(),
                null,
                null,
                targets,
                NOW,
                NOW);
        return new PostFinalizedEvent(
                ResourceIds.newId(IdPrefix.EVENT), PostFinalizedEvent.CANCELED, NOW, workspace, mode, canceled);
    }

    private void publish(String topic, Object event) throws Exception {
        producer.send(new ProducerRecord<>(topic, post, mapper.writeValueAsString(event)))
                .get();
    }

    private String status(Mode mode, String account) {
        return as(workspace, mode)
                .get("/internal/reservations/" + UsageReservation.publicationId(post, account))
                .then()
                .statusCode(200)
                .extract()
                .path("data.status");
    }

    private void awaitStatus(Mode mode, String account, String expected) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        String status = status(mode, account);
        while (!expected.equals(status) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            status = status(mode, account);
        }
        assertThat(status).isEqualTo(expected);
    }

    private long meter(String column, String periodStart) throws Exception {
        return count(
                "select coalesce(sum(" + column
                        + "), 0) from usage_meters where workspace_id = ? and meter = 'publications' "
                        + "and period_start = cast(? as timestamptz)",
                workspace,
                periodStart);
    }

    private long events(String type) throws Exception {
        return count(
                "select count(*) from outbox where payload->>'workspace_id' = ? and payload->>'type' = ?",
                workspace,
                type);
    }

    @Test
    void aPublishedTargetConsumesItsReservationInThePeriodOfCompletionOnce() throws Exception {
        reserveTargets(Mode.LIVE, "acc_1", "acc_2");
        TargetCompletedEvent published =
                completed(Mode.LIVE, "acc_1", PostTarget.PUBLISHED, Instant.parse("2026-04-01T00:05:00Z"));
        publish(Topics.TARGET_COMPLETED, published);
        // Redelivered, as an at-least-once relay may; then a later event on the same partition, whose effect shows
        // that the duplicate was handled before it.
        publish(Topics.TARGET_COMPLETED, published);
        publish(
                Topics.TARGET_COMPLETED,
                completed(Mode.LIVE, "acc_2", PostTarget.PUBLISHED, Instant.parse("2026-03-20T08:00:00Z")));

        awaitStatus(Mode.LIVE, "acc_2", UsageReservation.STATUS_CONSUMED);
        as(workspace, Mode.LIVE)
                .get("/internal/reservations/" + UsageReservation.publicationId(post, "acc_1"))
                .then()
                .body("data.status", equalTo("consumed"))
                .body("data.period.start", equalTo(MARCH))
                .body("data.consumed_period.start", equalTo(APRIL));
        assertThat(meter("reserved", MARCH)).isZero();
        assertThat(meter("used", MARCH)).isEqualTo(1);
        assertThat(meter("used", APRIL)).isEqualTo(1);
        assertThat(events("usage.consumed")).isEqualTo(2);
        assertThat(count("select count(*) from processed_events where event_id = ?", published.eventId()))
                .isEqualTo(1);
    }

    @Test
    void aTargetPublishedInItsReservationsPeriodIsConsumedOnceWithoutAnEntityWrite() throws Exception {
        reserveTargets(Mode.LIVE, "acc_1", "acc_2");
        Statistics statistics = sessionFactory.getStatistics();
        statistics.setStatisticsEnabled(true);
        try {
            long updated = statistics.getEntityUpdateCount();
            TargetCompletedEvent published = completed(Mode.LIVE, "acc_1", PostTarget.PUBLISHED, NOW.plusSeconds(60));
            publish(Topics.TARGET_COMPLETED, published);
            publish(Topics.TARGET_COMPLETED, published);
            publish(Topics.TARGET_COMPLETED, completed(Mode.LIVE, "acc_2", PostTarget.PUBLISHED, NOW.plusSeconds(120)));

            awaitStatus(Mode.LIVE, "acc_2", UsageReservation.STATUS_CONSUMED);
            as(workspace, Mode.LIVE)
                    .get("/internal/reservations/" + UsageReservation.publicationId(post, "acc_1"))
                    .then()
                    .body("data.status", equalTo("consumed"))
                    .body("data.consumed_period.start", equalTo(MARCH));
            assertThat(meter("reserved", MARCH)).isZero();
            assertThat(meter("used", MARCH)).isEqualTo(2);
            assertThat(events("usage.consumed")).isEqualTo(2);
            assertThat(count("select count(*) from processed_events where event_id = ?", published.eventId()))
                    .isEqualTo(1);
            // Both were consumed by ReservationStatements' one statement; the duplicate found its mark.
            assertThat(statistics.getEntityUpdateCount()).isEqualTo(updated);
        } finally {
            statistics.setStatisticsEnabled(false);
        }
    }

    @Test
    void aFailedTargetReleasesItsReservationAndAnUncertainOneKeepsIt() throws Exception {
        reserveTargets(Mode.TEST, "acc_1", "acc_2", "acc_3");
        TargetCompletedEvent failed = completed(Mode.TEST, "acc_1", PostTarget.FAILED, NOW.plusSeconds(60));
        publish(Topics.TARGET_COMPLETED, failed);
        publish(Topics.TARGET_COMPLETED, completed(Mode.TEST, "acc_2", PostTarget.UNCERTAIN, NOW.plusSeconds(60)));
        publish(Topics.TARGET_COMPLETED, failed);
        publish(Topics.TARGET_COMPLETED, completed(Mode.TEST, "acc_3", PostTarget.PUBLISHED, NOW.plusSeconds(90)));

        awaitStatus(Mode.TEST, "acc_3", UsageReservation.STATUS_CONSUMED);
        assertThat(status(Mode.TEST, "acc_1")).isEqualTo(UsageReservation.STATUS_RELEASED);
        assertThat(status(Mode.TEST, "acc_2")).isEqualTo(UsageReservation.STATUS_RESERVED);
        assertThat(meter("reserved", MARCH)).isEqualTo(1);
        assertThat(meter("used", MARCH)).isEqualTo(1);
        assertThat(events("usage.released")).isEqualTo(1);
    }

    @Test
    void aCanceledPostReleasesTheReservationOfEveryTargetOnce() throws Exception {
        reserveTargets(Mode.LIVE, "acc_1", "acc_2", "acc_3");
        // One was released already (its delivery failed before the cancellation was processed).
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/" + UsageReservation.publicationId(post, "acc_3") + "/release")
                .then()
                .statusCode(200);
        PostFinalizedEvent event = canceled(Mode.LIVE, "acc_1", "acc_2", "acc_3", "acc_never_reserved");
        publish(Topics.POST_FINALIZED, event);
        publish(Topics.POST_FINALIZED, event);

        awaitStatus(Mode.LIVE, "acc_1", UsageReservation.STATUS_RELEASED);
        assertThat(status(Mode.LIVE, "acc_2")).isEqualTo(UsageReservation.STATUS_RELEASED);
        assertThat(meter("reserved", MARCH)).isZero();
        // Wait for the duplicate by following it with another post's cancellation on the same key.
        String otherPost = post;
        post = ResourceIds.newId(IdPrefix.POST);
        reserveTargets(Mode.LIVE, "acc_1");
        PostFinalizedEvent next = canceled(Mode.LIVE, "acc_1");
        producer.send(new ProducerRecord<>(Topics.POST_FINALIZED, otherPost, mapper.writeValueAsString(next)))
                .get();
        awaitStatus(Mode.LIVE, "acc_1", UsageReservation.STATUS_RELEASED);
        // acc_1 and acc_2 of the first post, acc_3 by the API, acc_1 of the second post: four releases, none twice.
        assertThat(events("usage.released")).isEqualTo(4);
    }

    @Test
    void finalEventsOtherThanCancellationLeaveReservationsToTheirTargets() throws Exception {
        reserveTargets(Mode.LIVE, "acc_1");
        PostFinalizedEvent canceled = canceled(Mode.LIVE, "acc_1");
        PostFinalizedEvent failed = new PostFinalizedEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                PostFinalizedEvent.FAILED,
                NOW,
                workspace,
                Mode.LIVE,
                canceled.post());
        publish(Topics.POST_FINALIZED, failed);
        // A sentinel on the same partition: a target.completed cannot show order across topics, so the test
        // follows the failed event with a cancellation of another post.
        String first = post;
        post = ResourceIds.newId(IdPrefix.POST);
        reserveTargets(Mode.LIVE, "acc_9");
        producer.send(new ProducerRecord<>(
                        Topics.POST_FINALIZED, first, mapper.writeValueAsString(canceled(Mode.LIVE, "acc_9"))))
                .get();
        awaitStatus(Mode.LIVE, "acc_9", UsageReservation.STATUS_RELEASED);
        post = first;
        assertThat(status(Mode.LIVE, "acc_1")).isEqualTo(UsageReservation.STATUS_RESERVED);
        // Nothing applied, so no transaction either: every final post passes through this consumer.
        assertThat(count("select count(*) from processed_events where event_id = ?", failed.eventId()))
                .isZero();
    }

    @Test
    void unknownOrOtherwiseSettledReservationsAreSkippedWithoutBlockingThePartition() throws Exception {
        reserveTargets(Mode.LIVE, "acc_1", "acc_2");
        as(workspace, Mode.LIVE)
                .post("/internal/reservations/" + UsageReservation.publicationId(post, "acc_1") + "/consume")
                .then()
                .statusCode(200);
        // A failure for a consumed reservation, a publication nobody reserved, an unreadable record, a record of
        // another mode: each is skipped, and the next event of the partition still applies.
        publish(Topics.TARGET_COMPLETED, completed(Mode.LIVE, "acc_1", PostTarget.FAILED, NOW));
        publish(Topics.TARGET_COMPLETED, completed(Mode.LIVE, "acc_unknown", PostTarget.PUBLISHED, NOW));
        producer.send(new ProducerRecord<>(Topics.TARGET_COMPLETED, post, "{not json"))
                .get();
        publish(Topics.TARGET_COMPLETED, completed(Mode.TEST, "acc_2", PostTarget.PUBLISHED, NOW));
        publish(Topics.TARGET_COMPLETED, completed(Mode.LIVE, "acc_2", PostTarget.PUBLISHED, NOW.plusSeconds(5)));

        awaitStatus(Mode.LIVE, "acc_2", UsageReservation.STATUS_CONSUMED);
        assertThat(status(Mode.LIVE, "acc_1")).isEqualTo(UsageReservation.STATUS_CONSUMED);
        assertThat(meter("used", MARCH)).isEqualTo(2);
        assertThat(meter("reserved", MARCH)).isZero();
        assertThat(count("select count(*) from reservations where workspace_id = ? and mode = 'test'", workspace))
                .isZero();
    }

    @Test
    void aBurstOfOutcomesIsSettledExactlyWhateverTheBatchesTheConsumerPolls() throws Exception {
        List<String> accounts = new ArrayList<>();
        for (int i = 0; i < 18; i++) {
            accounts.add("acc_" + i);
        }
        reserveTargets(Mode.LIVE, accounts.toArray(String[]::new));
        // Sent without waiting, so that polls find many records: published targets (three of them delivered twice),
        // one target first uncertain, then published, and one failed, then (oddly) published: the same reservation
        // named twice in a batch is settled in the events' order, as one at a time would.
        List<TargetCompletedEvent> sent = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            sent.add(completed(Mode.LIVE, accounts.get(i), PostTarget.PUBLISHED, NOW.plusSeconds(i)));
        }
        sent.add(completed(Mode.LIVE, "acc_16", PostTarget.UNCERTAIN, NOW));
        sent.add(completed(Mode.LIVE, "acc_16", PostTarget.PUBLISHED, NOW.plusSeconds(30)));
        sent.add(completed(Mode.LIVE, "acc_17", PostTarget.FAILED, NOW));
        sent.add(completed(Mode.LIVE, "acc_17", PostTarget.PUBLISHED, NOW.plusSeconds(40)));
        sent.add(sent.get(0));
        sent.add(sent.get(5));
        sent.add(sent.get(15));
        for (TargetCompletedEvent event : sent) {
            producer.send(new ProducerRecord<>(Topics.TARGET_COMPLETED, post, mapper.writeValueAsString(event)));
        }
        producer.flush();

        String applied = "select count(*) from processed_events where event_id = any(string_to_array(?, ','))";
        String ids = String.join(
                ",", sent.stream().map(TargetCompletedEvent::eventId).toList());
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (count(applied, ids) < 20 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(count(applied, ids)).isEqualTo(20);
        assertThat(status(Mode.LIVE, "acc_17")).isEqualTo(UsageReservation.STATUS_RELEASED);
        for (int i = 0; i < 17; i++) {
            assertThat(status(Mode.LIVE, accounts.get(i))).isEqualTo(UsageReservation.STATUS_CONSUMED);
        }
        assertThat(meter("used", MARCH)).isEqualTo(17);
        assertThat(meter("reserved", MARCH)).isZero();
        assertThat(events("usage.consumed")).isEqualTo(17);
    }
}
