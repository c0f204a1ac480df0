package dev.herald.posts.support;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.tracing.TraceParents;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Calls and direct SQL the posts tests share. */
public final class PostsTestSupport {
    public static final String DATABASE = "posts_test";

    private PostsTestSupport() {}

    public static RequestSpecification as(String workspaceId, Mode mode) {
        return given().header("Authorization", TestTokens.bearer(workspaceId, mode, "posts:read", "posts:write"))
                .contentType(ContentType.JSON);
    }

    /**
     * A delivery outcome on {@code target.completed}, keyed by its post as delivery-worker sends it, with a
     * {@code traceparent} header when given.
     */
    public static void sendOutcome(ObjectMapper mapper, TargetCompletedEvent event, String traceParent)
            throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                "bootstrap.servers",
                RealInfrastructure.bootstrapServers(),
                "key.serializer",
                StringSerializer.class.getName(),
                "value.serializer",
                StringSerializer.class.getName()))) {
            ProducerRecord<String, String> record =
                    new ProducerRecord<>(Topics.TARGET_COMPLETED, event.postId(), mapper.writeValueAsString(event));
            if (traceParent != null) {
                record.headers().add(TraceParents.HEADER, traceParent.getBytes(StandardCharsets.US_ASCII));
            }
            producer.send(record).get();
        }
    }

    /** A test-mode account of {@code platform} in the workspace (fake accounts-service), with a fresh username. */
    public static String testAccount(String workspaceId, String platform, String profileId) {
        return FakeUpstreams.addAccount(
                workspaceId,
                "test",
                platform,
                "user_" + UUID.randomUUID().toString().substring(0, 6),
                profileId);
    }

    /** The body of a text post to one account. */
    public static String textPost(String accountId, String text) {
        return "{\"text\":\"" + text + "\",\"account_ids\":[\"" + accountId + "\"]}";
    }

    /** A POST /posts request with a fresh Idempotency-Key. */
    public static RequestSpecification posting(String workspaceId, Mode mode) {
        return as(workspaceId, mode).header("Idempotency-Key", UUID.randomUUID().toString());
    }

    /** One statement, committed on its own. */
    public static void execute(String sql, Object... parameters) throws Exception {
        try (Connection connection = RealInfrastructure.connect(DATABASE);
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.execute();
        }
    }

    public static long count(String sql, Object... parameters) throws Exception {
        try (Connection connection = RealInfrastructure.connect(DATABASE);
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** A post as the API accepted it, with no targets yet; its id. */
    public static String insertPost(String workspaceId, String mode, String status) throws Exception {
        String post = dev.herald.common.ids.ResourceIds.newId(dev.herald.common.ids.IdPrefix.POST);
        execute("""
                insert into posts (id, workspace_id, mode, text, due_at, status, created_at, updated_at, dispatched_at)
                values (?, ?, ?, 'Doors open at 9', now(), ?, now(), now(), now())""", post, workspaceId, mode, status);
        return post;
    }

    /**
     * A target of the post in {@code status}; a published one has {@code providerPostId} and was published
     * {@code minutesAgo} whole minutes ago (and 30 seconds, so the minute does not turn during a test).
     */
    public static void insertTarget(
            String post,
            int position,
            String accountId,
            String platform,
            String status,
            String providerPostId,
            int minutesAgo)
            throws Exception {
        execute(
                """
                insert into post_targets (post_id, position, account_id, platform, account_username, reservation_id, status,
                                          attempts, provider_post_id, completed_at, updated_at)
                values (?, ?, ?, ?, 'brand', ?, ?, 1, ?,
                        case when ? = 'published' then now() - make_interval(mins => ?) - interval '30 seconds' end, now())""",
                post,
                position,
                accountId,
                platform,
                post + "-" + accountId,
                status,
                providerPostId,
                status,
                minutesAgo);
    }
}
