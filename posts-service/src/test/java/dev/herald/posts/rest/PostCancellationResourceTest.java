package dev.herald.posts.rest;

import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.posting;
import static dev.herald.posts.support.PostsTestSupport.testAccount;
import static dev.herald.posts.support.PostsTestSupport.textPost;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code POST /posts/{id}/cancel} ({@code PostCancellation}): a queued post once, never one handed to delivery. */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PostCancellationResourceTest {
    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    @Test
    void aQueuedScheduledPostCanBeCanceledOnce() throws Exception {
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        String linkedIn = testAccount(workspace, "linkedin", profile);
        String at = Instant.now()
                .plus(1, ChronoUnit.HOURS)
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        String id = posting(workspace, Mode.TEST)
                .body("{\"text\":\"Later\",\"account_ids\":[\"" + linkedIn + "\"],\"scheduled_at\":\"" + at + "\"}")
                .post("/posts")
                .then()
                .statusCode(202)
                .body("data.scheduled_at", equalTo(at))
                .extract()
                .path("data.id");
        Thread.sleep(500);
        as(workspace, Mode.TEST).get("/posts/" + id).then().body("data.status", equalTo("queued"));

        assertThat(FakeUpstreams.holders(profile)).containsExactly(id);
        as(workspace, Mode.TEST)
                .delete("/posts/" + id)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("canceled"))
                .body("data.targets[0].status", equalTo("canceled"));
        // Given back before the cancel answered: the profile can be deleted at once, not a release-job run later.
        assertThat(FakeUpstreams.holders(profile)).isEmpty();
        as(workspace, Mode.TEST)
                .delete("/posts/" + id)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("post_not_cancelable"))
                .body("error.details.status", equalTo("canceled"));
    }

    @Test
    void anImmediatePostIsHandedToDeliveryAndCannotBeCanceled() throws Exception {
        String id = posting(workspace, Mode.TEST)
                .body(textPost(testAccount(workspace, "linkedin", null), "Now"))
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
        long deadline = System.currentTimeMillis() + 5_000;
        String status = "queued";
        while (status.equals("queued") && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
            status = as(workspace, Mode.TEST)
                    .get("/posts/" + id)
                    .then()
                    .extract()
                    .path("data.status");
        }
        assertThat(status).isEqualTo("publishing");
        as(workspace, Mode.TEST)
                .delete("/posts/" + id)
                .then()
                .statusCode(409)
                .body("error.code", equalTo("post_not_cancelable"));
    }
}
