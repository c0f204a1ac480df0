package dev.herald.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(value = CannedApiUpstream.class, restrictToAnnotatedClass = true)
class DashboardPostsResourceTest {

    @Test
    void postsAreListedNewestFirstAndPagedWithTheApisCursor() {
        DashboardVisitor viewer = DashboardVisitor.signedInToNewWorkspace("viewer");
        String posts = viewer.base("test") + "/posts";
        String first = viewer.get(posts).then().statusCode(200).extract().asString();
        assertThat(first)
                .containsSubsequence("Hello from Herald", "A post that failed")
                .doesNotContain("Spring sale")
                .contains("href=\"" + posts + "?cursor=posts2\" id=\"next-page\"");
        viewer.get(posts + "?cursor=posts2")
                .then()
                .statusCode(200)
                .body(containsString("Spring sale starts tomorrow"))
                .body(containsString("2030-03-01 09:00:00 UTC"))
                .body(not(containsString("id=\"next-page\"")));
    }

    @Test
    void filtersReachTheApiAndStayInTheFormAndItsNextLink() {
        DashboardVisitor viewer = DashboardVisitor.signedInToNewWorkspace("viewer");
        String posts = viewer.base("test") + "/posts";
        viewer.get(posts + "?status=failed&platform=tiktok&profile_id=" + CannedApiUpstream.ACME)
                .then()
                .statusCode(200)
                .body(containsString("A post that failed"))
                .body(not(containsString("Hello from Herald")))
                .body(containsString("<option value=\"failed\" selected>"))
                .body(containsString("<option value=\"tiktok\" selected>"))
                .body(containsString("value=\"" + CannedApiUpstream.ACME + "\""));
        assertThat(CannedApiUpstream.requests)
                .anyMatch(request -> request.equals(
                        "GET /posts?status=failed&platform=tiktok&profile_id=" + CannedApiUpstream.ACME + "&limit=25"));
    }

    @Test
    void aBadFilterComesBackBesideItsFieldNeverAsJson() {
        DashboardVisitor viewer = DashboardVisitor.signedInToNewWorkspace("viewer");
        viewer.get(viewer.base("test") + "/posts?status=sent")
                .then()
                .statusCode(422)
                .contentType(containsString("text/html"))
                .body(containsString("<p class=\"field-error\" id=\"status-error\">status must be one of queued"))
                .body(containsString("aria-describedby=\"status-error\""))
                .body(containsString("<option value=\"sent\" selected>sent</option>"))
                .body(not(containsString("\"error\"")));
    }

    @Test
    void aPostShowsEveryTargetsOutcomeAndProviderLink() {
        DashboardVisitor viewer = DashboardVisitor.signedInToNewWorkspace("viewer");
        String posts = viewer.base("test") + "/posts/";
        viewer.get(posts + CannedApiUpstream.PUBLISHED)
                .then()
                .statusCode(200)
                .body(containsString("id=\"post-text\">Hello from Herald"))
                // The post's first comment, escaped like every text the customer wrote.
                .body(containsString("id=\"post-first-comment\">More in the comments &lt;3</dd>"))
                .body(containsString("<td>LinkedIn</td>"))
                .body(containsString("acc_aaaaaaaaaaaaaaaaaaaaaaa1"))
                .body(containsString(
                        "<a href=\"https://www.linkedin.com/feed/update/urn:li:share:1\" rel=\"noopener noreferrer\">"))
                .body(containsString("<td class=\"first-comment\"><span class=\"status published\">published</span>"
                        + " <code>urn:li:comment:(urn:li:activity:1,2)</code></td>"));
        viewer.get(posts + CannedApiUpstream.FAILED)
                .then()
                .statusCode(200)
                .body(containsString(
                        "<code class=\"error-code\">provider_error</code>: TikTok refused the video: too short."))
                .body(containsString(
                        "<span class=\"error-action\" data-category=\"media\" data-action=\"replace_media\">"
                                + "Media: Replace the media</span>"))
                .body(containsString("<span class=\"status failed\">failed</span>"))
                .body(containsString("<td class=\"first-comment\"><span class=\"status failed\">failed</span>"
                        + " <code class=\"error-code\">target_not_published</code>: The post was not published"))
                .body(containsString("its first comment was not posted. <span class=\"error-action\""
                        + " data-category=\"platform\" data-action=\"retry_later\">"));
        viewer.get(posts + CannedApiUpstream.SCHEDULED)
                .then()
                .statusCode(200)
                .body(containsString("id=\"post-scheduled\">2030-03-01 09:00:00 UTC"))
                .body(not(containsString("id=\"cancel-post\"")));
    }

    @Test
    void anUnknownPostOrAnotherWorkspacesIsNotFound() {
        DashboardVisitor mine = DashboardVisitor.signedInToNewWorkspace("owner");
        DashboardVisitor theirs = DashboardVisitor.signedInToNewWorkspace("owner");
        mine.get(mine.base("test") + "/posts/pst_dddddddddddddddddddddddd")
                .then()
                .statusCode(404)
                .contentType(containsString("text/html"))
                .body(containsString("Not found"));
        mine.get(theirs.base("test") + "/posts/" + CannedApiUpstream.SCHEDULED)
                .then()
                .statusCode(404)
                .body(not(containsString("Spring sale")));
    }

    @Test
    void anOwnerCancelsAQueuedPostAfterConfirmation() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String post = owner.base("test") + "/posts/" + CannedApiUpstream.SCHEDULED;
        owner.get(post).then().statusCode(200).body(containsString("href=\"" + post + "/cancel\""));
        owner.get(post + "/cancel")
                .then()
                .statusCode(200)
                .body(containsString("Cancel this post?"))
                .body(containsString("id=\"confirm-cancel\""));
        assertThat(CannedApiUpstream.requests).doesNotContain("DELETE /posts/" + CannedApiUpstream.SCHEDULED);

        owner.post(post + "/cancel", post + "/cancel", Map.of())
                .then()
                .statusCode(303)
                .header("Location", containsString(post + "?canceled=true"));
        assertThat(CannedApiUpstream.requests).contains("DELETE /posts/" + CannedApiUpstream.SCHEDULED);
    }

    @Test
    void aPostThatIsNoLongerQueuedIsNotCanceled() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String post = owner.base("test") + "/posts/" + CannedApiUpstream.PUBLISHED;
        owner.get(post).then().statusCode(200).body(not(containsString("id=\"cancel-post\"")));
        owner.get(post + "/cancel").then().statusCode(409).contentType(containsString("text/html"));
        owner.post(post, post + "/cancel", Map.of())
                .then()
                .statusCode(409)
                .contentType(containsString("text/html"))
                .body(containsString("Only a queued post can be canceled."));
    }

    @Test
    void developersAndViewersSeeNoCancelButtonAndAreRefused() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        for (String role : new String[] {"developer", "viewer"}) {
            DashboardVisitor member = DashboardVisitor.signedIn(owner.workspaceId, role);
            String post = member.base("test") + "/posts/" + CannedApiUpstream.SCHEDULED;
            member.get(post).then().statusCode(200).body(not(containsString("id=\"cancel-post\"")));
            member.get(post + "/cancel")
                    .then()
                    .statusCode(403)
                    .contentType(containsString("text/html"))
                    .body(containsString("cannot cancel posts"));
            member.post(post, post + "/cancel", Map.of())
                    .then()
                    .statusCode(403)
                    .body(containsString("cannot cancel posts"));
        }
    }
}
