package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Live Facebook Pages end to end against the provider fakes: a Page connected through the hosted page (Facebook
 * Login against the fake), a photo post checked by the exact Graph request and the target's final id and URL, and a
 * Page whose grant the user revoked. HTTP only: the gateway and the fakes' control API.
 */
@ResourceLock(RunningSuite.FACEBOOK_FAKE)
class LiveFacebookIT {
    private static final String PAGE_ID = "108765432109876";

    @Test
    void aPageConnectedThroughTheHostedPagePublishesAPhotoWithTheExactGraphRequest() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Facebook");
        String accountId = pageAccount(live);
        FakeRequests.clear("facebook");

        String text = "Fresh loaves at 7 " + UUID.randomUUID();
        String postId = live.post("{\"text\":\"" + text + "\",\"account_ids\":[\"" + accountId + "\"],"
                + "\"media\":{\"type\":\"image\",\"url\":\"https://media.example.com/loaves.jpg\"}}");
        JsonPath target = PostsPipelineIT.awaitFinal(live.key(), postId).setRootPath("data.targets[0]");

        List<Map<String, Object>> requests = FakeRequests.of("facebook");
        assertThat(requests).extracting(FakeRequests::line).containsExactly("POST /v24.0/" + PAGE_ID + "/photos 200");
        Map<String, Object> request = requests.get(0);
        @SuppressWarnings("unchecked")
        Map<String, List<String>> headers = (Map<String, List<String>>) request.get("headers");
        assertThat(headers.get("content-type"))
                .singleElement()
                .asString()
                .startsWith("application/x-www-form-urlencoded");
        // The Page's own token, never the user's: Pages publishing is done as the Page.
        assertThat(headers.get("authorization")).singleElement().asString().matches("Bearer sha256:[0-9a-f]{16}");
        assertThat(FakeRequests.form((String) request.get("body")))
                .isEqualTo(Map.of("url", "https://media.example.com/loaves.jpg", "message", text));

        String pagePost = fakes().get("/_fakes/facebook/posts")
                .then()
                .statusCode(200)
                .extract()
                .path("data[0].id");
        assertThat(pagePost).startsWith(PAGE_ID + "_");
        assertThat(target.getString("status")).isEqualTo("published");
        assertThat(target.getString("provider_post_id")).isEqualTo(pagePost);
        assertThat(target.getString("url"))
                .isEqualTo("https://www.facebook.com/" + PAGE_ID + "/posts/" + pagePost.substring(PAGE_ID.length() + 1)
                        + "/");
        assertThat(target.getInt("attempts")).isEqualTo(1);
        assertThat(PostsPipelineIT.awaitPublications(live.key(), PostsPipelineIT.meter(1, 0)))
                .containsEntry("used", 1)
                .containsEntry("reserved", 0);
    }

    @Test
    void aTextPostWithALinkAndAVideoGoToTheirOwnEdges() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Facebook text and video");
        String accountId = pageAccount(live);
        FakeRequests.clear("facebook");

        String text = "Open on Sunday " + UUID.randomUUID();
        String textPost = live.post("{\"text\":\"" + text + "\",\"account_ids\":[\"" + accountId + "\"],"
                + "\"platform_options\":{\"facebook\":{\"link\":\"https://bakery.example.com/hours\"}}}");
        JsonPath textTarget = PostsPipelineIT.awaitFinal(live.key(), textPost).setRootPath("data.targets[0]");
        String description = "How we shape loaves " + UUID.randomUUID();
        String videoPost = live.post("{\"text\":\"" + description + "\",\"account_ids\":[\"" + accountId + "\"],"
                + "\"media\":{\"type\":\"video\",\"url\":\"https://media.example.com/shaping.mp4\"}}");
        JsonPath videoTarget = PostsPipelineIT.awaitFinal(live.key(), videoPost).setRootPath("data.targets[0]");

        List<Map<String, Object>> requests = FakeRequests.of("facebook");
        assertThat(requests)
                .extracting(FakeRequests::line)
                .containsExactly("POST /v24.0/" + PAGE_ID + "/feed 200", "POST /v24.0/" + PAGE_ID + "/videos 200");
        assertThat(FakeRequests.form((String) requests.get(0).get("body")))
                .isEqualTo(Map.of("message", text, "link", "https://bakery.example.com/hours"));
        // Facebook fetches the video from its URL itself: Herald moves no bytes for Facebook.
        assertThat(FakeRequests.form((String) requests.get(1).get("body")))
                .isEqualTo(Map.of("file_url", "https://media.example.com/shaping.mp4", "description", description));

        String feedPost = fakes().get("/_fakes/facebook/posts")
                .then()
                .extract()
                .path("data.find { it.message == '" + text + "' }.id");
        String video = fakes().get("/_fakes/facebook/posts")
                .then()
                .extract()
                .path("data.find { it.description == '" + description + "' }.id");
        assertThat(textTarget.getString("status")).isEqualTo("published");
        assertThat(textTarget.getString("provider_post_id")).isEqualTo(feedPost);
        assertThat(textTarget.getString("url"))
                .isEqualTo("https://www.facebook.com/" + PAGE_ID + "/posts/" + feedPost.substring(PAGE_ID.length() + 1)
                        + "/");
        assertThat(videoTarget.getString("status")).isEqualTo("published");
        assertThat(videoTarget.getString("provider_post_id")).isEqualTo(video);
        assertThat(videoTarget.getString("url"))
                .isEqualTo("https://www.facebook.com/" + PAGE_ID + "/videos/" + video + "/");
    }

    /**
     * A revoked Page grant: the delivery's one call is refused, the account turns reauth_required and the target waits for a reconnection; the customer disconnects the account instead, and the waiting
     * target fails as one to a disconnected account, charging nothing.
     */
    @Test
    void aRevokedGrantHoldsTheTargetUntilTheCustomerDisconnectsTheAccountThenFailsItChargingNothing() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live Facebook revoked");
        String accountId = pageAccount(live);
        FakeRequests.clear("facebook");
        fakes().post("/_fakes/facebook/tokens/revoke").then().statusCode(200);

        String postId = live.post("{\"text\":\"Nobody will see this " + UUID.randomUUID() + "\",\"account_ids\":[\""
                + accountId + "\"]}");
        JsonPath broken = ConnectionHealthIT.awaitAccount(
                live.key(), accountId, ConnectionHealthIT.health("reauth_required"), Duration.ofSeconds(30));
        assertThat(broken.getString("data.status")).isEqualTo("connected");
        // Graph refused the Page token (code 190) to the publisher; a Page token has nothing to renew it with.
        assertThat(broken.getString("data.health.reason")).startsWith("token_refused: Facebook refused");
        ConnectionHealthIT.awaitHeldTarget(live.key(), postId);

        as(live.key()).delete("/accounts/" + accountId).then().statusCode(200);
        JsonPath target = PostsPipelineIT.awaitFinal(live.key(), postId).setRootPath("data.targets[0]");
        assertThat(target.getString("status")).isEqualTo("failed");
        assertThat(target.getString("error.code")).isEqualTo("account_disconnected");
        assertThat(target.getBoolean("error.retryable")).isFalse();
        // Facebook refused the Page token once; a Page token cannot be renewed without the user, so nothing was posted.
        assertThat(FakeRequests.of("facebook"))
                .extracting(FakeRequests::line)
                .containsExactly("POST /v24.0/" + PAGE_ID + "/feed 400");
        assertThat(PostsPipelineIT.awaitPublications(live.key(), PostsPipelineIT.meter(0, 0)))
                .containsEntry("used", 0)
                .containsEntry("reserved", 0);
    }

    private static String pageAccount(LiveWorkspace live) {
        List<Map<String, Object>> accounts = HostedConnect.connect(live, "facebook");
        assertThat(accounts)
                .extracting(
                        account -> account.get("platform") + " " + account.get("name") + " @" + account.get("username"))
                .containsExactly("facebook Herald Fake Bakery @heraldfakebakery");
        return (String) accounts.get(0).get("id");
    }
}
