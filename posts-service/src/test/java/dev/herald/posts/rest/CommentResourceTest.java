package dev.herald.posts.rest;

import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.count;
import static dev.herald.posts.support.PostsTestSupport.execute;
import static dev.herald.posts.support.PostsTestSupport.posting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.UsageReservation;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class CommentResourceTest {
    @Inject
    ObjectMapper mapper;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    /** A post to the account, published (as the worker would report it); its id. */
    private String published(String accountId) throws Exception {
        String id = posting(workspace, Mode.TEST)
                .body("{\"text\":\"Hi\",\"account_ids\":[\"" + accountId + "\"],"
                        + "\"media\":{\"url\":\"https://cdn.example.com/v.mp4\",\"type\":\"video\"},"
                        + "\"platform_options\":{\"tiktok\":{\"privacy_level\":\"SELF_ONLY\"}}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
        Instant now = Instant.now();
        TargetCompletedEvent event = new TargetCompletedEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                TargetCompletedEvent.TYPE,
                now,
                workspace,
                Mode.TEST,
                id,
                accountId,
                UsageReservation.publicationId(id, accountId),
                "published",
                1,
                "sim_1",
                null,
                null,
                now);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                "bootstrap.servers",
                RealInfrastructure.bootstrapServers(),
                "key.serializer",
                StringSerializer.class.getName(),
                "value.serializer",
                StringSerializer.class.getName()))) {
            producer.send(new ProducerRecord<>(Topics.TARGET_COMPLETED, id, mapper.writeValueAsString(event)))
                    .get();
        }
        long deadline = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < deadline
                && !"published"
                        .equals(as(workspace, Mode.TEST)
                                .get("/posts/" + id)
                                .then()
                                .extract()
                                .path("data.status"))) {
            Thread.sleep(100);
        }
        return id;
    }

    @Test
    void aPublishedTestPostHasTheSimulatedCommentsAndAcceptsReplies() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "tiktok", "brand", null);
        String post = published(account);
        List<String> ids = as(workspace, Mode.TEST)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .body("data", hasSize(3))
                .body("data[0].post_id", equalTo(post))
                .body("data[0].account_id", equalTo(account))
                .body("data[0].platform", equalTo("tiktok"))
                .body("data[0].from_account", equalTo(false))
                .body(
                        "data.text",
                        containsInAnyOrder("Love this!", "Where can I learn more?", "Not sure about this one."))
                .body("data.parent_id", everyItem(nullValue()))
                .extract()
                .path("data.id");
        assertThat(ids).allMatch(id -> id.matches("^cmt_[a-f0-9]{24}$"));

        String reply = as(workspace, Mode.TEST)
                .body("{\"comment_id\":\"" + ids.get(0) + "\",\"text\":\"  Thanks!  \"}")
                .post("/comments")
                .then()
                .statusCode(201)
                .body("data.id", matchesPattern("^cmt_[a-f0-9]{24}$"))
                .body("data.parent_id", equalTo(ids.get(0)))
                .body("data.text", equalTo("Thanks!"))
                .body("data.author_username", equalTo("brand"))
                .body("data.from_account", equalTo(true))
                .extract()
                .path("data.id");
        as(workspace, Mode.TEST)
                .get("/comments?account_id=" + account + "&limit=2")
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .body("data[0].id", equalTo(reply))
                .body("meta.has_more", equalTo(true));
        // A reply to a reply joins the thread, as on the platforms (they take replies to top-level comments only).
        as(workspace, Mode.TEST)
                .body("{\"comment_id\":\"" + reply + "\",\"text\":\"And welcome\"}")
                .post("/comments")
                .then()
                .statusCode(201)
                .body("data.parent_id", equalTo(ids.get(0)));
        as(workspace, Mode.TEST)
                .get("/comments?account_id=" + account + "&cursor=")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("cursor"));

        as(workspace, Mode.TEST)
                .body("{\"comment_id\":\"" + ids.get(0) + "\",\"text\":\"" + "x".repeat(151) + "\"}")
                .post("/comments")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("text"));
    }

    @Test
    void simulatedCommentsArriveAtTheFirstReadWithTheirDerivedIdsAndTimesAndOnlyOnce() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "tiktok", "brand", null);
        String post = published(account);
        assertThat(count("select count(*) from comments where post_id = ?", post))
                .isZero();

        List<String> listed = as(workspace, Mode.TEST)
                .get("/comments?account_id=" + account)
                .then()
                .statusCode(200)
                .body("data", hasSize(3))
                .extract()
                .path("data.id");

        // Newest first: the third comment came 3 ms after publication, the first 1 ms after.
        assertThat(listed)
                .containsExactly(
                        simulatedId(post, account, 2), simulatedId(post, account, 1), simulatedId(post, account, 0));
        for (int position = 0; position < 3; position++) {
            assertThat(count(
                            "select count(*) from comments c join post_targets t using (post_id, account_id) "
                                    + "where c.id = ? and c.created_at = t.completed_at + ? * interval '1 millisecond'",
                            simulatedId(post, account, position),
                            position + 1))
                    .isEqualTo(1);
        }
        as(workspace, Mode.TEST)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .body("data.id", equalTo(listed));
        assertThat(count("select count(*) from comments where post_id = ?", post))
                .isEqualTo(3);
    }

    @Test
    void commentsWrittenAtPublicationByEarlierVersionsDoNotArriveAgain() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "tiktok", "brand", null);
        String post = published(account);
        // Before, the audience was written with the outcome; such a target has no comments_read_at.
        String[] texts = {"Love this!", "Where can I learn more?", "Not sure about this one."};
        for (int position = 0; position < 3; position++) {
            execute(
                    "insert into comments (id, workspace_id, mode, account_id, post_id, platform, text, author_name, "
                            + "author_username, from_account, created_at) select ?, ?, 'test', ?, ?, 'tiktok', ?, 'a', 'a', false, "
                            + "completed_at + ? * interval '1 millisecond' from post_targets where post_id = ?",
                    simulatedId(post, account, position),
                    workspace,
                    account,
                    post,
                    texts[position],
                    position + 1,
                    post);
        }

        as(workspace, Mode.TEST)
                .get("/comments?post_id=" + post)
                .then()
                .statusCode(200)
                .body("data", hasSize(3));

        assertThat(count("select count(*) from comments where post_id = ?", post))
                .isEqualTo(3);
    }

    /** How every version has named a test target's simulated comments: SHA-256 of post, account and position. */
    private static String simulatedId(String postId, String accountId, int position) throws Exception {
        byte[] hash = MessageDigest.getInstance("SHA-256")
                .digest((postId + ":" + accountId + ":" + position).getBytes(StandardCharsets.UTF_8));
        return "cmt_" + HexFormat.of().formatHex(hash).substring(0, 24);
    }

    @Test
    void badFiltersAndOtherTenantsParentsAreRefused() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        String post = published(account);
        as(workspace, Mode.TEST).get("/comments").then().statusCode(400).body("error.code", equalTo("invalid_request"));
        as(workspace, Mode.TEST)
                .get("/comments?post_id=nope")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("post_id"));
        String stranger = ResourceIds.newId(IdPrefix.WORKSPACE);
        as(stranger, Mode.TEST).get("/comments?post_id=" + post).then().statusCode(404);
        as(stranger, Mode.TEST).get("/comments?account_id=" + account).then().statusCode(404);
        String comment = as(workspace, Mode.TEST)
                .get("/comments?post_id=" + post)
                .then()
                .extract()
                .path("data[0].id");
        as(stranger, Mode.TEST)
                .body("{\"comment_id\":\"" + comment + "\",\"text\":\"Hi\"}")
                .post("/comments")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("comment_id"));
        as(workspace, Mode.TEST)
                .body("{\"comment_id\":\"x\",\"text\":\"\",\"extra\":1}")
                .post("/comments")
                .then()
                .statusCode(422)
                .body("error.details.errors", hasSize(3));
        // What the lookup finds comes in the same 422 as what the body's rules found.
        as(workspace, Mode.TEST)
                .body("{\"comment_id\":\"cmt_000000000000000000000000\",\"text\":\"" + "x".repeat(10_001) + "\"}")
                .post("/comments")
                .then()
                .statusCode(422)
                .body("error.details.errors.field", containsInAnyOrder("text", "comment_id"))
                .body("error.details.errors.code", containsInAnyOrder("too_long", "invalid_value"));
    }

    @Test
    void pinterestHasNoCommentsAndAnUnknownLiveAccountIsNotFound() {
        String pinterest = FakeUpstreams.addAccount(workspace, "test", "pinterest", "brand", null);
        as(workspace, Mode.TEST)
                .get("/comments?account_id=" + pinterest)
                .then()
                .statusCode(422)
                .body("error.code", equalTo("comments_unavailable"));
        as(workspace, Mode.LIVE)
                .get("/comments?account_id=" + ResourceIds.newId(IdPrefix.ACCOUNT))
                .then()
                .statusCode(404);
    }
}
