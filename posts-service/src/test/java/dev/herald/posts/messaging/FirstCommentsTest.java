package dev.herald.posts.messaging;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.count;
import static dev.herald.posts.support.PostsTestSupport.execute;
import static dev.herald.posts.support.PostsTestSupport.posting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostFinalizedEvent;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.TargetError;
import dev.herald.common.wire.UsageReservation;
import dev.herald.posts.support.FakeCommentPlatforms;
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
 * First comments: test targets take the sandbox's answer as they publish; live ones are posted by
 * {@link FirstCommentJob} on a stand-in of Facebook's comment edge, refused ones fail, temporary failures are tried
 * again until the deadline; the post's final event waits for them and carries each target's {@code first_comment}.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeCommentPlatforms.class, scope = TestResourceScope.MATCHING_RESOURCES)
class FirstCommentsTest {
    private static final String PAGE = "1029384756";
    private static final String TOKEN = "page-token";

    @Inject
    ObjectMapper mapper;

    @Inject
    FirstCommentJob job;

    private WireMock fake;
    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        fake = FakeCommentPlatforms.client();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    @Test
    void testTargetsTakeTheSandboxsFirstCommentAsTheyPublishAndTheFinalEventCarriesIt() throws Exception {
        String linkedin = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        String facebook = FakeUpstreams.addAccount(workspace, "test", "facebook", "page", null);
        String id = posting(workspace, Mode.TEST)
                .body("{\"text\":\"Open day\",\"account_ids\":[\"" + linkedin + "\",\"" + facebook
                        + "\"],\"first_comment\":{\"text\":\"Tickets at the door\"}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .body("data.targets[0].first_comment.status", equalTo("pending"))
                .body("data.targets[1].first_comment.status", equalTo("pending"))
                .extract()
                .path("data.id");

        send(id, outcome(id, linkedin, Mode.TEST, "published", "li_1"));
        send(id, outcome(id, facebook, Mode.TEST, "failed", null));

        PostFinalizedEvent event = finalized(id);
        assertThat(event.type()).isEqualTo("post.partially_failed");
        PostTarget.FirstCommentStatus published = event.post().targets().get(0).firstComment();
        assertThat(published.status()).isEqualTo("published");
        assertThat(published.commentId()).matches("sbx_cmt_[0-9a-f]{24}");
        // The target that never published never got its comment, and says so.
        PostTarget.FirstCommentStatus notPosted = event.post().targets().get(1).firstComment();
        assertThat(notPosted.status()).isEqualTo("failed");
        assertThat(notPosted.error().code()).isEqualTo("target_not_published");
        as(workspace, Mode.TEST)
                .get("/posts/" + id)
                .then()
                .body("data.targets[0].first_comment.comment_id", equalTo(published.commentId()))
                .body("data.targets[1].first_comment.error.code", equalTo("target_not_published"));
    }

    @Test
    void aTestFirstCommentStartingWithFailFailsWithoutFailingThePost() throws Exception {
        String linkedin = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        String id = posting(workspace, Mode.TEST)
                .body("{\"text\":\"Open day\",\"account_ids\":[\"" + linkedin
                        + "\"],\"first_comment\":{\"text\":\"fail_ spam\"}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");

        send(id, outcome(id, linkedin, Mode.TEST, "published", "li_2"));

        PostFinalizedEvent event = finalized(id);
        assertThat(event.type()).isEqualTo("post.published");
        TargetError error = event.post().targets().get(0).firstComment().error();
        assertThat(event.post().targets().get(0).firstComment().status()).isEqualTo("failed");
        assertThat(error.code()).isEqualTo("provider_error");
        assertThat(error.category()).isEqualTo("content");
        assertThat(error.action()).isEqualTo("edit_content");
    }

    @Test
    void aLivePostsFinalEventWaitsForItsFirstCommentWhichIsPostedAsThePageOnThePost() throws Exception {
        String account = liveFacebookAccount();
        String id = livePost(account, "publishing", null);
        fake.register(
                post(urlPathEqualTo("/fb/v24.0/" + PAGE + "_77/comments")).willReturn(okJson("{\"id\":\"77_9001\"}")));

        send(id, outcome(id, account, Mode.LIVE, "published", PAGE + "_77"));

        // finalization nudged the job, which posted the comment; then the final event went out, carrying it.
        PostFinalizedEvent event = finalized(id);
        assertThat(event.type()).isEqualTo("post.published");
        assertThat(event.post().targets().get(0).firstComment())
                .isEqualTo(new PostTarget.FirstCommentStatus("published", "77_9001", null));
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo("/fb/v24.0/" + PAGE + "_77/comments"))
                        .withHeader("Authorization", WireMock.equalTo("Bearer " + TOKEN))
                        .withRequestBody(WireMock.equalTo("message=Tickets+at+the+door")));
        assertThat(FakeUpstreams.commentRequests(workspace, "live")).isEqualTo(Map.of("consumed", 1L));
        as(workspace, Mode.LIVE)
                .get("/posts/" + id)
                .then()
                .body("data.status", equalTo("published"))
                .body("data.targets[0].first_comment.status", equalTo("published"))
                .body("data.targets[0].first_comment.comment_id", equalTo("77_9001"));
    }

    @Test
    void aFirstCommentThePlatformRefusesFailsWithWhatItSaidAndThePostStaysPublished() throws Exception {
        String account = liveFacebookAccount();
        String id = livePost(account, "published", PAGE + "_78");
        fake.register(post(urlPathEqualTo("/fb/v24.0/" + PAGE + "_78/comments"))
                .willReturn(aResponse()
                        .withStatus(400)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"error\":{\"message\":\"The action attempted has been deemed abusive\","
                                + "\"type\":\"OAuthException\",\"code\":368}}")));

        runJob();

        PostFinalizedEvent event = finalized(id);
        assertThat(event.type()).isEqualTo("post.published");
        PostTarget.FirstCommentStatus comment = event.post().targets().get(0).firstComment();
        assertThat(comment.status()).isEqualTo("failed");
        assertThat(comment.error().code()).isEqualTo("provider_error");
        assertThat(comment.error().message()).contains("deemed abusive");
        assertThat(comment.error().category()).isEqualTo("content");
        assertThat(comment.error().retryable()).isFalse();
        // Refused calls are never charged.
        assertThat(FakeUpstreams.commentRequests(workspace, "live")).isEqualTo(Map.of("released", 1L));
    }

    @Test
    void aTemporaryFailureIsTriedAgainLaterAndFailsOnceTheDeadlineLeavesNoRoom() throws Exception {
        String account = liveFacebookAccount();
        String id = livePost(account, "published", PAGE + "_79");
        fake.register(post(urlPathEqualTo("/fb/v24.0/" + PAGE + "_79/comments"))
                .willReturn(aResponse()
                        .withStatus(500)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"error\":{\"message\":\"An unexpected error has occurred\",\"code\":2}}")));

        runJob();

        String postponed =
                "select count(*) from post_targets where post_id = ? and first_comment ->> 'status' = 'pending'"
                        + " and first_comment_attempts = 1 and first_comment_due_at > now()";
        for (int wait = 0; wait < 100 && count(postponed, id) == 0; wait++) {
            Thread.sleep(100);
        }
        assertThat(count(postponed, id)).isEqualTo(1);
        assertThat(TopicReader.recordsKeyed(Topics.POST_FINALIZED, id, 1, Duration.ofSeconds(2)))
                .isEmpty();

        // Ten minutes after publication, the next failure leaves no room for another try.
        execute(
                "update post_targets set completed_at = now() - interval '11 minutes', first_comment_due_at = now()"
                        + " where post_id = ?",
                id);
        runJob();

        PostTarget.FirstCommentStatus comment =
                finalized(id).post().targets().get(0).firstComment();
        assertThat(comment.status()).isEqualTo("failed");
        assertThat(comment.error().retryable()).isTrue();
        assertThat(comment.error().category()).isEqualTo("platform");
        assertThat(comment.error().action()).isEqualTo("retry_later");
        assertThat(comment.error().message()).startsWith("Herald tried 2 times");
        assertThat(FakeUpstreams.commentRequests(workspace, "live")).isEqualTo(Map.of("released", 2L));
    }

    @Test
    void aUsedUpCommentAllowanceFailsTheFirstCommentWithoutCallingThePlatform() throws Exception {
        String account = liveFacebookAccount();
        FakeUpstreams.setCommentRequestLimit(workspace, "live", 0);
        String id = livePost(account, "published", PAGE + "_80");

        runJob();

        PostTarget.FirstCommentStatus comment =
                finalized(id).post().targets().get(0).firstComment();
        assertThat(comment.status()).isEqualTo("failed");
        assertThat(comment.error().code()).isEqualTo("usage_limit_exceeded");
        fake.verifyThat(0, postRequestedFor(urlPathEqualTo("/fb/v24.0/" + PAGE + "_80/comments")));
    }

    @Test
    void aCanceledPostsFirstCommentsFailAsNeverPosted() throws Exception {
        String linkedin = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        String id = posting(workspace, Mode.TEST)
                .body("{\"text\":\"Later\",\"account_ids\":[\"" + linkedin + "\"],\"scheduled_at\":\""
                        + Instant.now().plus(1, ChronoUnit.DAYS) + "\",\"first_comment\":{\"text\":\"Soon\"}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");

        as(workspace, Mode.TEST)
                .delete("/posts/" + id)
                .then()
                .statusCode(200)
                .body("data.targets[0].first_comment.status", equalTo("failed"))
                .body("data.targets[0].first_comment.error.code", equalTo("target_not_published"));
        assertThat(finalized(id).post().targets().get(0).firstComment().error().code())
                .isEqualTo("target_not_published");
    }

    /** A pass of the job, on its own Vert.x context as its timer runs it; the test then waits for what it did. */
    private void runJob() {
        job.nudge();
    }

    private String liveFacebookAccount() {
        String account = FakeUpstreams.addAccount(workspace, "live", "facebook", "page", null);
        FakeUpstreams.grantAccess(account, "facebook", PAGE, TOKEN);
        return account;
    }

    /**
     * A live post with a first comment and one target in {@code status}: a published one (with
     * {@code providerPostId}) leaves the post published, its final event not yet written; a publishing one leaves
     * it publishing.
     */
    private String livePost(String account, String status, String providerPostId) throws Exception {
        String id = ResourceIds.newId(IdPrefix.POST);
        boolean published = "published".equals(status);
        execute("""
                insert into posts (id, workspace_id, mode, text, first_comment, due_at, status, created_at, updated_at,
                                   dispatched_at, finalized_at)
                values (?, ?, 'live', 'Open day', '{"text":"Tickets at the door"}'::jsonb, now(), ?, now(), now(), now(),
                        case when ? then now() end)""", id, workspace, status, published);
        execute("""
                insert into post_targets (post_id, position, account_id, platform, account_username, reservation_id,
                                          status, attempts, provider_post_id, first_comment, completed_at, updated_at)
                values (?, 0, ?, 'facebook', 'page', ?, ?, 1, ?, '{"status":"pending"}'::jsonb,
                        case when ? then now() end, now())""", id, account, UsageReservation.publicationId(id, account), status, providerPostId, published);
        return id;
    }

    private TargetCompletedEvent outcome(String post, String account, Mode mode, String status, String providerId) {
        Instant done = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return new TargetCompletedEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                TargetCompletedEvent.TYPE,
                done,
                workspace,
                mode,
                post,
                account,
                UsageReservation.publicationId(post, account),
                status,
                1,
                providerId,
                providerId == null ? null : "https://example.com/" + providerId,
                "failed".equals(status) ? new TargetError("provider_error", "Refused.", false, Map.of()) : null,
                done);
    }

    private PostFinalizedEvent finalized(String postId) throws Exception {
        List<ConsumerRecord<String, String>> finals =
                TopicReader.recordsKeyed(Topics.POST_FINALIZED, postId, 1, Duration.ofSeconds(20));
        assertThat(finals).hasSize(1);
        return mapper.readValue(finals.get(0).value(), PostFinalizedEvent.class);
    }

    private void send(String postId, TargetCompletedEvent event) throws Exception {
        assertThat(event.postId()).isEqualTo(postId);
        PostsTestSupport.sendOutcome(mapper, event, null);
    }
}
