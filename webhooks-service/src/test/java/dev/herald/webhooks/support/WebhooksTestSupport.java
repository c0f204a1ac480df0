package dev.herald.webhooks.support;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.events.PostFinalizedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.events.UsageEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.rest.JsonMapperCustomizer;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.common.wire.UsageReservation;
import dev.herald.openapi.OpenApiDocument;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** What the webhooks tests share: calls with an internal JWT, events on the real broker, direct SQL. */
public final class WebhooksTestSupport {
    public static final String DATABASE = "webhooks_test";
    /** Herald's own JSON (snake_case, RFC 3339), as posts-service writes its events. */
    public static final ObjectMapper JSON = JsonMapperCustomizer.configure(new ObjectMapper());

    private static final Duration WAIT = Duration.ofSeconds(30);

    private WebhooksTestSupport() {}

    public static RequestSpecification as(String workspaceId, Mode mode) {
        return given().header("Authorization", TestTokens.bearer(workspaceId, mode, "webhooks:read", "webhooks:write"))
                .contentType(ContentType.JSON);
    }

    /** Registers an endpoint and answers its id and secret. */
    public static Registered register(String workspaceId, Mode mode, String url, String... events) {
        String body = "{\"url\":\"" + url + "\",\"description\":\"test receiver\",\"events\":[\""
                + String.join("\",\"", events) + "\"]}";
        var json = as(workspaceId, mode)
                .body(body)
                .post("/webhooks")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        return new Registered(json.getString("data.id"), json.getString("data.secret"));
    }

    public record Registered(String id, String secret) {}

    /** The body the public API document promises for a webhook event type (the gateway serves the document). */
    public static JsonSchema documentedBody(String type) {
        try {
            OpenApiDocument document = OpenApiDocument.parse(
                    Files.readString(Path.of("../api-gateway/src/main/resources/openapi/herald-public-api.json")));
            return document.validator(document.root()
                    .path("webhooks")
                    .path(type)
                    .path("post")
                    .path("requestBody")
                    .path("content")
                    .path("application/json")
                    .path("schema"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A post.finalized event of a new post in the tenant, as posts-service sends it. */
    public static PostFinalizedEvent finalized(String workspaceId, Mode mode, String type) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        String postId = ResourceIds.newId(IdPrefix.POST);
        String status = switch (type) {
            case PostFinalizedEvent.PUBLISHED -> Post.PUBLISHED;
            case PostFinalizedEvent.PARTIALLY_FAILED -> Post.PARTIALLY_FAILED;
            case PostFinalizedEvent.FAILED -> Post.FAILED;
            default -> Post.CANCELED;
        };
        String targetStatus = status.equals(Post.CANCELED)
                ? PostTarget.CANCELED
                : status.equals(Post.FAILED) ? PostTarget.FAILED : PostTarget.PUBLISHED;
        PostTarget target = new PostTarget(
                ResourceIds.newId(IdPrefix.ACCOUNT),
                Platform.LINKEDIN,
                null,
                targetStatus,
                1,
                targetStatus.equals(PostTarget.PUBLISHED) ? "sbx_0123" : null,
                null,
                null,
                null,
                now);
        ObjectNode options = JSON.createObjectNode();
        Post post = new Post(
                postId,
                "Hello, webhooks \u2713",
                status,
                mode,
                null,
                null,
                options,
                null,
                null,
                List.of(target),
                now,
                now);
        return new PostFinalizedEvent(ResourceIds.newId(IdPrefix.EVENT), type, now, workspaceId, mode, post);
    }

    /** A producer of string records to the test broker. */
    private static KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(
                "bootstrap.servers",
                RealInfrastructure.bootstrapServers(),
                "key.serializer",
                StringSerializer.class.getName(),
                "value.serializer",
                StringSerializer.class.getName()));
    }

    public static void send(PostFinalizedEvent... events) throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            for (PostFinalizedEvent event : events) {
                producer.send(new ProducerRecord<>(
                                Topics.POST_FINALIZED, event.post().id(), JSON.writeValueAsString(event)))
                        .get();
            }
        }
    }

    /** The event with a {@code traceparent} header, as posts-service's outbox relay sends it. */
    public static void sendTraced(PostFinalizedEvent event, String traceParent) throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            ProducerRecord<String, String> record =
                    new ProducerRecord<>(Topics.POST_FINALIZED, event.post().id(), JSON.writeValueAsString(event));
            record.headers().add("traceparent", traceParent.getBytes(StandardCharsets.US_ASCII));
            producer.send(record).get();
        }
    }

    /** A {@code usage.reserved} event as usage-service writes it: one reservation and its meter after the change. */
    public static UsageEvent reserved(
            String workspaceId, Mode mode, String meter, UsagePeriod period, long used, long reserved, Long limit) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        UsageReservation reservation = new UsageReservation(
                ResourceIds.newId(IdPrefix.POST) + "-" + ResourceIds.newId(IdPrefix.ACCOUNT),
                meter,
                1,
                UsageReservation.STATUS_RESERVED,
                period,
                null,
                now,
                now);
        return new UsageEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                UsageEvent.RESERVED,
                now,
                workspaceId,
                mode,
                reservation,
                new UsageEvent.MeterState(used, reserved, limit));
    }

    /** Sends usage events on {@code usage.reserved}, keyed as usage-service keys them. */
    public static void sendUsage(UsageEvent... events) throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            for (UsageEvent event : events) {
                producer.send(new ProducerRecord<>(
                                Topics.USAGE_RESERVED,
                                UsageEvent.key(event.workspaceId(), event.mode()),
                                JSON.writeValueAsString(event)))
                        .get();
            }
        }
    }

    /**
     * An account event as accounts-service records it: the account after the change (health {@code reauth_required}
     * for {@code account.reauth_required}, disconnected for {@code account.disconnected}, healthy otherwise).
     */
    public static AccountEvent accountEvent(
            String workspaceId, Mode mode, String accountId, String type, String reconnectUrl) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        AccountHealth health = switch (type) {
            case AccountEvent.REAUTH_REQUIRED ->
                new AccountHealth(
                        AccountHealth.REAUTH_REQUIRED, "invalid_grant: Token has been expired or revoked.", now, now);
            case AccountEvent.DISCONNECTED -> new AccountHealth(AccountHealth.DISCONNECTED, null, null, now);
            default -> new AccountHealth(AccountHealth.HEALTHY, null, now.plus(Duration.ofDays(60)), now);
        };
        boolean disconnected = type.equals(AccountEvent.DISCONNECTED);
        Account account = new Account(
                accountId,
                Platform.YOUTUBE,
                null,
                "Acme",
                "acme",
                disconnected ? Account.DISCONNECTED : Account.CONNECTED,
                health,
                mode,
                now,
                disconnected ? now : null,
                now,
                now,
                null);
        return new AccountEvent(
                ResourceIds.newId(IdPrefix.EVENT), type, now, workspaceId, mode, account, null, reconnectUrl);
    }

    /** Sends account events on {@code account.events}, keyed by account id as accounts-service keys them. */
    public static void sendAccount(AccountEvent... events) throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            for (AccountEvent event : events) {
                producer.send(new ProducerRecord<>(
                                Topics.ACCOUNT_EVENTS, event.account().id(), JSON.writeValueAsString(event)))
                        .get();
            }
        }
    }

    public static void sendRaw(String key, String value) throws Exception {
        sendRaw(Topics.POST_FINALIZED, key, value);
    }

    public static void sendRaw(String topic, String key, String value) throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        }
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

    /** The deliveries of an endpoint, oldest first. */
    public static List<Map<String, Object>> deliveriesOf(String endpointId) throws Exception {
        return rows("select * from deliveries where endpoint_id = ? order by created_at, id", endpointId);
    }

    /** Polls until the condition holds, or fails after 30 s. */
    public static void await(String what, ThrowingCondition condition) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(50);
        }
    }

    @FunctionalInterface
    public interface ThrowingCondition {
        boolean holds() throws Exception;
    }
}
