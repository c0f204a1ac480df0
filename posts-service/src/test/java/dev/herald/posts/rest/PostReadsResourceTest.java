package dev.herald.posts.rest;

import static dev.herald.posts.support.PostsTestSupport.as;
import static dev.herald.posts.support.PostsTestSupport.posting;
import static dev.herald.posts.support.PostsTestSupport.testAccount;
import static dev.herald.posts.support.PostsTestSupport.textPost;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /posts} and {@code GET /posts/{id}} ({@code PostReads}): tenancy, filters and cursors. */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PostReadsResourceTest {
    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    @Test
    void otherTenantsPostsAreNotFound() {
        String id = posting(workspace, Mode.TEST)
                .body(textPost(testAccount(workspace, "linkedin", null), "Mine"))
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .get("/posts/" + id)
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.LIVE).get("/posts/" + id).then().statusCode(404);
        as(workspace, Mode.LIVE).delete("/posts/" + id).then().statusCode(404);
    }

    @Test
    void listsFilterByStatusPlatformTextAccountAndProfileWithCursorsBoundToFilters() {
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        String linkedIn = testAccount(workspace, "linkedin", profile);
        String facebook = testAccount(workspace, "facebook", null);
        for (int i = 0; i < 3; i++) {
            posting(workspace, Mode.TEST)
                    .body(textPost(linkedIn, "Launch 100% day " + i))
                    .post("/posts")
                    .then()
                    .statusCode(202);
        }
        posting(workspace, Mode.TEST)
                .body(textPost(facebook, "Other"))
                .post("/posts")
                .then()
                .statusCode(202);

        as(workspace, Mode.TEST)
                .get("/posts?platform=facebook")
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("data[0].text", equalTo("Other"));
        as(workspace, Mode.TEST).queryParam("q", "100%").get("/posts").then().body("data", hasSize(3));
        as(workspace, Mode.TEST).queryParam("q", "1_0").get("/posts").then().body("data", hasSize(0));
        as(workspace, Mode.TEST).get("/posts?account_id=" + facebook).then().body("data", hasSize(1));
        as(workspace, Mode.TEST).get("/posts?profile_id=" + profile).then().body("data", hasSize(3));
        String cursor = as(workspace, Mode.TEST)
                .get("/posts?platform=linkedin&limit=2")
                .then()
                .statusCode(200)
                .body("data", hasSize(2))
                .body("meta.has_more", equalTo(true))
                .body("data[0].text", equalTo("Launch 100% day 2"))
                .extract()
                .path("meta.next_cursor");
        as(workspace, Mode.TEST)
                .get("/posts?platform=linkedin&limit=2&cursor=" + cursor)
                .then()
                .statusCode(200)
                .body("data", hasSize(1))
                .body("meta.has_more", equalTo(false))
                .body("meta.next_cursor", nullValue());
        as(workspace, Mode.TEST)
                .get("/posts?platform=facebook&cursor=" + cursor)
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_cursor"));
        as(workspace, Mode.TEST)
                .get("/posts?status=done")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("status"));
        as(workspace, Mode.TEST).get("/posts?profile_id=nope").then().statusCode(400);
        as(workspace, Mode.TEST)
                .get("/posts?limit=")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("limit"));
        as(workspace, Mode.TEST)
                .get("/posts?cursor=")
                .then()
                .statusCode(400)
                .body("error.details.parameter", equalTo("cursor"));
    }
}
