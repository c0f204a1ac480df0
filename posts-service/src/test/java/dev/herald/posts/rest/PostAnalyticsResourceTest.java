package dev.herald.posts.rest;

import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.execute;
import static dev.herald.posts.support.PostsTestSupport.insertPost;
import static dev.herald.posts.support.PostsTestSupport.insertTarget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.posts.messaging.AnalyticsRefreshJob;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /posts/{id}/analytics} in test mode: the sandbox's documented numbers, the cache
 * and its header, YouTube's consent, tenancy and the refresher, against the real database.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PostAnalyticsResourceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CACHE = "x-herald-cache";

    @Inject
    AnalyticsRefreshJob refresher;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    /** The documented sandbox views: minutes * (1 + s mod 10), s the first 4 bytes of SHA-256(provider post id). */
    private static long views(String providerPostId, long minutes) throws Exception {
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(providerPostId.getBytes(StandardCharsets.UTF_8));
        long seed =
                ((hash[0] & 0xffL) << 24) | ((hash[1] & 0xffL) << 16) | ((hash[2] & 0xffL) << 8) | (hash[3] & 0xffL);
        return minutes * (1 + seed % 10);
    }

    private Response read(String post) {
        return as(workspace, Mode.TEST).get("/posts/" + post + "/analytics");
    }

    /** The answer's data with each target's refreshed_at taken out (checked to be set exactly when metrics are). */
    private static JsonNode withoutRefreshedAt(Response response) throws Exception {
        JsonNode data = JSON.readTree(response.asString()).get("data");
        for (JsonNode target : data.get("targets")) {
            assertThat(target.get("refreshed_at").isNull())
                    .as(target.toString())
                    .isEqualTo(target.get("metrics").isNull());
            ((ObjectNode) target).remove("refreshed_at");
        }
        return data;
    }

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void eachTargetAnswersTheSandboxsNumbersOrWhyNotAndTheSecondReadIsAFreeCacheHit() throws Exception {
        String linkedin = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        String instagram = FakeUpstreams.addAccount(workspace, "test", "instagram", "brand", null);
        String tiktok = FakeUpstreams.addAccount(workspace, "test", "tiktok", "brand", null);
        String facebook = FakeUpstreams.addAccount(workspace, "test", "facebook", "brand", null);
        String post = insertPost(workspace, "test", "publishing");
        insertTarget(post, 0, linkedin, "linkedin", "published", "sim_li_1", 120);
        insertTarget(post, 1, instagram, "instagram", "published", "sim_ig_1", 45);
        insertTarget(post, 2, tiktok, "tiktok", "publishing", null, 0);
        insertTarget(post, 3, facebook, "facebook", "failed", null, 0);
        long li = views("sim_li_1", 120);
        long ig = views("sim_ig_1", 45);
        JsonNode expected = json("""
                {"object":"post_analytics","post_id":"%s","targets":[
                  {"account_id":"%s","platform":"linkedin","provider_post_id":"sim_li_1","status":"available","reason":null,
                   "metrics":{"views":null,"likes":%d,"comments":%d,"shares":null,"saves":null,"reach":null},
                   "raw":{"simulated":true,"minutes_since_publication":120}},
                  {"account_id":"%s","platform":"instagram","provider_post_id":"sim_ig_1","status":"available","reason":null,
                   "metrics":{"views":%d,"likes":%d,"comments":%d,"shares":%d,"saves":%d,"reach":%d},
                   "raw":{"simulated":true,"minutes_since_publication":45}},
                  {"account_id":"%s","platform":"tiktok","provider_post_id":null,"status":"pending","reason":"not_published_yet",
                   "metrics":null,"raw":null},
                  {"account_id":"%s","platform":"facebook","provider_post_id":null,"status":"unavailable","reason":"target_failed",
                   "metrics":null,"raw":null}]}""".formatted(
                        post,
                        linkedin,
                        li / 12,
                        li / 60,
                        instagram,
                        ig,
                        ig / 12,
                        ig / 60,
                        ig / 90,
                        ig / 45,
                        ig * 3 / 4,
                        tiktok,
                        facebook));

        Response first = read(post);
        first.then().statusCode(200).header(CACHE, nullValue());
        assertThat(withoutRefreshedAt(first)).isEqualTo(expected);
        String refreshedAt = first.path("data.targets[0].refreshed_at");

        Response second = read(post);
        second.then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.targets[0].refreshed_at", equalTo(refreshedAt));
        assertThat(withoutRefreshedAt(second)).isEqualTo(expected);
    }

    @Test
    void numbersGrowWithTimeSincePublicationOnceTheCachedOnesAreStale() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "tiktok", "brand", null);
        String post = insertPost(workspace, "test", "published");
        insertTarget(post, 0, account, "tiktok", "published", "sim_tt_grow", 10);
        long early = views("sim_tt_grow", 10);
        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.targets[0].metrics.views", equalTo((int) early))
                .body("data.targets[0].metrics.shares", equalTo((int) (early / 90)))
                .body("data.targets[0].metrics.saves", nullValue())
                .body("data.targets[0].metrics.reach", nullValue());

        // Three hours later, past the 15 minutes of freshness.
        execute("update post_targets set completed_at = completed_at - interval '3 hours' where post_id = ?", post);
        execute(
                "update post_analytics set refreshed_at = refreshed_at - interval '16 minutes' where post_id = ?",
                post);
        long later = views("sim_tt_grow", 190);
        assertThat(later).isGreaterThan(early);
        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.targets[0].metrics.views", equalTo((int) later))
                .body("data.targets[0].metrics.likes", equalTo((int) (later / 12)))
                .body("data.targets[0].metrics.comments", equalTo((int) (later / 60)))
                .body("data.targets[0].raw.minutes_since_publication", equalTo(190));
    }

    @Test
    void youtubeNumbersAreRedactedUntilTheOwnerConsentsForTheCurrentAuthorization() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "youtube", "brand", null);
        FakeUpstreams.setAnalyticsConsent(workspace, "test", account, false);
        String post = insertPost(workspace, "test", "published");
        insertTarget(post, 0, account, "youtube", "published", "sim_yt_1", 60);

        Response redacted = read(post);
        // Nothing was read for it: free.
        redacted.then().statusCode(200).header(CACHE, equalTo("hit"));
        assertThat(withoutRefreshedAt(redacted)).isEqualTo(json("""
                {"object":"post_analytics","post_id":"%s","targets":[
                  {"account_id":"%s","platform":"youtube","provider_post_id":"sim_yt_1","status":"redacted",
                   "reason":"analytics_consent_required","metrics":null,"raw":null}]}""".formatted(post, account)));
        assertThat(PostsTestSupport.count("select count(*) from post_analytics where post_id = ?", post))
                .isZero();

        FakeUpstreams.setAnalyticsConsent(workspace, "test", account, true);
        long views = views("sim_yt_1", 60);
        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.targets[0].status", equalTo("available"))
                .body("data.targets[0].reason", nullValue())
                .body("data.targets[0].metrics.views", equalTo((int) views))
                .body("data.targets[0].metrics.likes", equalTo((int) (views / 12)))
                .body("data.targets[0].metrics.comments", equalTo((int) (views / 60)))
                .body("data.targets[0].metrics.shares", nullValue());

        // A re-authorization clears the consent: the cached numbers are redacted again.
        FakeUpstreams.setAnalyticsConsent(workspace, "test", account, false);
        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.targets[0].status", equalTo("redacted"))
                .body("data.targets[0].metrics", nullValue())
                .body("data.targets[0].raw", nullValue());
    }

    @Test
    void aPostWithNothingPublishedYetIsAllPendingAndFree() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "pinterest", "brand", null);
        String post = insertPost(workspace, "test", "queued");
        insertTarget(post, 0, account, "pinterest", "queued", null, 0);
        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.targets[0].status", equalTo("pending"))
                .body("data.targets[0].reason", equalTo("not_published_yet"))
                .body("data.targets[0].refreshed_at", nullValue());
    }

    @Test
    void anotherWorkspacesOrModesPostIsNotFound() throws Exception {
        String account = FakeUpstreams.addAccount(workspace, "test", "linkedin", "brand", null);
        String post = insertPost(workspace, "test", "published");
        insertTarget(post, 0, account, "linkedin", "published", "sim_li_other", 5);

        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .get("/posts/" + post + "/analytics")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.LIVE)
                .get("/posts/" + post + "/analytics")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.TEST)
                .get("/posts/not-a-post/analytics")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        assertThat(PostsTestSupport.count("select count(*) from post_analytics where post_id = ?", post))
                .isZero();
    }

    @Test
    void theRefresherReadsNewlyPublishedTargetsIntoTheCacheButNeverAYoutubeOneWithoutConsent() throws Exception {
        String facebook = FakeUpstreams.addAccount(workspace, "test", "facebook", "brand", null);
        String youtube = FakeUpstreams.addAccount(workspace, "test", "youtube", "brand", null);
        FakeUpstreams.setAnalyticsConsent(workspace, "test", youtube, false);
        String post = insertPost(workspace, "test", "published");
        insertTarget(post, 0, facebook, "facebook", "published", "sim_fb_job", 30);
        insertTarget(post, 1, youtube, "youtube", "published", "sim_yt_job", 30);

        // Other tests' targets may be due too: pass until this post's were taken.
        for (int pass = 0;
                pass < 50
                        && PostsTestSupport.count(
                                        "select count(*) from post_analytics where post_id = ? and next_refresh_at > now() + interval '5 minutes'",
                                        post)
                                < 2;
                pass++) {
            refresher.refreshDue().await().atMost(Duration.ofSeconds(30));
        }
        assertThat(PostsTestSupport.count("""
                select count(*) from post_analytics where post_id = ? and account_id = ? and refreshed_at is not null
                  and cast(metrics ->> 'views' as bigint) = ? and last_error is null""", post, facebook, views("sim_fb_job", 30)))
                .isEqualTo(1);
        assertThat(PostsTestSupport.count("""
                select count(*) from post_analytics where post_id = ? and account_id = ? and metrics is null
                  and refreshed_at is null and last_error = 'analytics_consent_required'""", post, youtube)).isEqualTo(1);

        // The read answers what the refresher stored, free.
        read(post)
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.targets[0].metrics.views", equalTo((int) views("sim_fb_job", 30)))
                .body("data.targets[1].status", equalTo("redacted"));
    }
}
