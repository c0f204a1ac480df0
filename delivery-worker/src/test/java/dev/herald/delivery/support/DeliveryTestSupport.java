package dev.herald.delivery.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.rest.JsonMapperCustomizer;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostMedia;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.UsageReservation;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TopicReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** What the delivery tests share: events on the real broker, direct SQL on the worker's database. */
public final class DeliveryTestSupport {
    public static final String DATABASE = "delivery_test";
    /** Herald's own JSON (snake_case, RFC 3339), as posts-service writes its events. */
    public static final ObjectMapper JSON = JsonMapperCustomizer.configure(new ObjectMapper());

    private static final Duration WAIT = Duration.ofSeconds(60);

    private DeliveryTestSupport() {}

    /** One target of a post: an account with its platform and username. */
    public record Target(String accountId, Platform platform, String username) {
        public static Target of(Platform platform, String username) {
            return new Target(ResourceIds.newId(IdPrefix.ACCOUNT), platform, username);
        }

        public String reservationId(String postId) {
            return UsageReservation.publicationId(postId, accountId);
        }
    }

    /** A post.accepted event for a new post with these targets, as posts-service sends it. */
    public static PostAcceptedEvent accepted(String workspaceId, Mode mode, Target... targets) {
        return accepted(
                workspaceId,
                mode,
                "Hello from Herald",
                new Post.Media("https://cdn.example.com/clip.mp4", Post.Media.VIDEO),
                targets);
    }

    /** The same with this text and media (null for a text post). */
    public static PostAcceptedEvent accepted(
            String workspaceId, Mode mode, String text, Post.Media media, Target... targets) {
        return acceptedWithItems(workspaceId, mode, text, media == null ? null : PostMedia.single(media), targets);
    }

    /** The same with several media items (a carousel). */
    public static PostAcceptedEvent acceptedWithItems(
            String workspaceId, Mode mode, String text, PostMedia media, Target... targets) {
        Instant now = Instant.now();
        String postId = ResourceIds.newId(IdPrefix.POST);
        ObjectNode options = JSON.createObjectNode();
        options.putObject("youtube").put("privacy_status", "public").put("made_for_kids", false);
        List<PostTarget> postTargets = new ArrayList<>();
        List<PostAcceptedEvent.Delivery> deliveries = new ArrayList<>();
        for (Target target : targets) {
            postTargets.add(new PostTarget(
                    target.accountId(),
                    target.platform(),
                    null,
                    PostTarget.PUBLISHING,
                    0,
                    null,
                    null,
                    null,
                    null,
                    null));
            deliveries.add(new PostAcceptedEvent.Delivery(
                    target.accountId(), target.platform(), target.username(), target.reservationId(postId)));
        }
        Post post =
                new Post(postId, text, Post.PUBLISHING, mode, media, null, options, null, null, postTargets, now, now);
        return new PostAcceptedEvent(
                ResourceIds.newId(IdPrefix.EVENT), PostAcceptedEvent.TYPE, now, workspaceId, mode, post, deliveries);
    }

    /** The same event for a post scheduled at {@code scheduledAt}. */
    public static PostAcceptedEvent scheduled(PostAcceptedEvent event, Instant scheduledAt) {
        Post post = event.post();
        Post scheduled = new Post(
                post.id(),
                post.text(),
                post.status(),
                post.mode(),
                post.media(),
                scheduledAt,
                post.platformOptions(),
                post.firstComment(),
                post.seriesId(),
                post.targets(),
                post.createdAt(),
                post.updatedAt());
        return new PostAcceptedEvent(
                event.eventId(),
                event.type(),
                event.occurredAt(),
                event.workspaceId(),
                event.mode(),
                scheduled,
                event.deliveries());
    }

    public static void send(PostAcceptedEvent event) throws Exception {
        send(event, null);
    }

    /** The events in this order, sent without waiting for each, so that the worker's polls find several at once. */
    public static void sendAll(List<PostAcceptedEvent> events) throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            for (PostAcceptedEvent event : events) {
                producer.send(
                        new ProducerRecord<>(Topics.POST_ACCEPTED, event.post().id(), JSON.writeValueAsString(event)));
            }
            producer.flush();
        }
    }

    /** The event with a {@code traceparent} header, as posts-service's outbox relay sends it (none when null). */
    public static void send(PostAcceptedEvent event, String traceParent) throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            ProducerRecord<String, String> record =
                    new ProducerRecord<>(Topics.POST_ACCEPTED, event.post().id(), JSON.writeValueAsString(event));
            if (traceParent != null) {
                record.headers().add("traceparent", traceParent.getBytes(StandardCharsets.US_ASCII));
            }
            producer.send(record).get();
        }
    }

    /**
     * An {@code account.*} event about the target's account as accounts-service sends it: {@code type} one of {@link
     * AccountEvent}'s, {@code reconnectUrl} for the hold ones (or null).
     */
    public static AccountEvent accountEvent(
            String workspaceId, Mode mode, Target target, String type, String healthStatus, String reconnectUrl) {
        Instant now = Instant.now();
        Account account = new Account(
                target.accountId(),
                target.platform(),
                null,
                target.username(),
                target.username(),
                AccountHealth.DISCONNECTED.equals(healthStatus) ? Account.DISCONNECTED : Account.CONNECTED,
                new AccountHealth(healthStatus, null, null, now),
                mode,
                now,
                null,
                now,
                now,
                null);
        return new AccountEvent(
                ResourceIds.newId(IdPrefix.EVENT), type, now, workspaceId, mode, account, null, reconnectUrl);
    }

    /** The account event on {@code account.events}, keyed by account id. */
    public static void send(AccountEvent event) throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>(
                            Topics.ACCOUNT_EVENTS, event.account().id(), JSON.writeValueAsString(event)))
                    .get();
        }
    }

    private static KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(
                "bootstrap.servers",
                RealInfrastructure.bootstrapServers(),
                "key.serializer",
                StringSerializer.class.getName(),
                "value.serializer",
                StringSerializer.class.getName()));
    }

    /** The post's target.completed events, waiting until {@code expected} arrived (or a minute passed). */
    public static List<JsonNode> completions(String postId, int expected) throws Exception {
        return completions(postId, expected, WAIT);
    }

    public static List<JsonNode> completions(String postId, int expected, Duration wait) throws Exception {
        List<JsonNode> events = new ArrayList<>();
        for (ConsumerRecord<String, String> record :
                TopicReader.recordsKeyed(Topics.TARGET_COMPLETED, postId, expected, wait)) {
            events.add(JSON.readTree(record.value()));
        }
        return events;
    }

    /**
     * The one completion of a target; fails if none came, or if the worker published another one for it. A second
     * completion could only come from work still under way, so the check first waits until there is none: every
     * post.accepted record handled (its offset committed), every delivery of the post final and nothing left in the
     * outbox. Whatever the worker publishes for the post is then on the topic.
     */
    public static JsonNode onlyCompletion(String postId, String accountId) throws Exception {
        return onlyCompletions(postId, accountId, 1).get(0);
    }

    /**
     * Exactly {@code expected} target.completed of the post's one target, in order (a held target's {@code queued}
     * notice, then its end), checked as {@link #onlyCompletion} checks one.
     */
    public static List<JsonNode> onlyCompletions(String postId, String accountId, int expected) throws Exception {
        List<JsonNode> found = completions(postId, expected);
        assertThat(found).as("target.completed of post %s", postId).hasSize(expected);
        TopicReader.awaitConsumed("delivery-worker", Topics.POST_ACCEPTED, WAIT);
        await(
                "every delivery of post " + postId + " is final",
                () -> rows("select 1 from deliveries where post_id = ? and status in ('pending', 'publishing')", postId)
                        .isEmpty());
        await(
                "the outbox is relayed",
                () -> rows("select 1 from outbox where published_at is null").isEmpty());
        List<JsonNode> again = new ArrayList<>();
        for (ConsumerRecord<String, String> record : TopicReader.recordsKeyedSoFar(Topics.TARGET_COMPLETED, postId)) {
            again.add(JSON.readTree(record.value()));
        }
        assertThat(again).as("every target.completed of post %s", postId).hasSize(expected);
        assertThat(again)
                .allSatisfy(
                        event -> assertThat(event.get("account_id").asText()).isEqualTo(accountId));
        return again;
    }

    /** The rows a query answers, as column name to value. */
    public static List<Map<String, Object>> rows(String sql, Object... parameters) throws Exception {
        try (Connection connection = RealInfrastructure.connect(DATABASE);
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            List<Map<String, Object>> rows = new ArrayList<>();
            try (ResultSet results = statement.executeQuery()) {
                ResultSetMetaData meta = results.getMetaData();
                while (results.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int column = 1; column <= meta.getColumnCount(); column++) {
                        row.put(meta.getColumnLabel(column), results.getObject(column));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    public static int update(String sql, Object... parameters) throws Exception {
        try (Connection connection = RealInfrastructure.connect(DATABASE);
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        }
    }

    public static Map<String, Object> delivery(String postId, String accountId) throws Exception {
        List<Map<String, Object>> found =
                rows("select * from deliveries where post_id = ? and account_id = ?", postId, accountId);
        assertThat(found).hasSize(1);
        return found.get(0);
    }

    /** The delivery's status, or null while its row does not exist yet (for polling). */
    public static String deliveryStatus(String postId, String accountId) throws Exception {
        List<Map<String, Object>> found =
                rows("select status from deliveries where post_id = ? and account_id = ?", postId, accountId);
        return found.isEmpty() ? null : (String) found.get(0).get("status");
    }

    /** How often the target's delivery was postponed so far (0 before its row exists). */
    public static int deferrals(String postId, String accountId) throws Exception {
        List<Map<String, Object>> found =
                rows("select deferrals from deliveries where post_id = ? and account_id = ?", postId, accountId);
        return found.isEmpty() ? 0 : (Integer) found.get(0).get("deferrals");
    }

    /** The sandbox's rows for a target's token (at most one). */
    public static List<Map<String, Object>> sandboxPublications(String postId, String accountId) throws Exception {
        return rows(
                "select * from sandbox_publications where token = ?",
                dev.herald.delivery.provider.PublishRequest.tokenOf(postId, accountId));
    }

    /** Every publish call the sandbox recorded for a target's token, in the order it received them. */
    public static List<Map<String, Object>> sandboxPublishCalls(String postId, String accountId) throws Exception {
        return rows(
                "select * from sandbox_publish_calls where token = ? order by call_number",
                dev.herald.delivery.provider.PublishRequest.tokenOf(postId, accountId));
    }

    /** Polls until the condition holds, or fails after a minute. */
    public static void await(String what, ThrowingCondition condition) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(100);
        }
    }

    @FunctionalInterface
    public interface ThrowingCondition {
        boolean holds() throws Exception;
    }
}
