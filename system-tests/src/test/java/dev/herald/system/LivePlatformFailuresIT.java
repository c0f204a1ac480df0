package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The same failures on every platform, through the whole suite against the provider fakes: a grant the user revoked
 * fails the target as {@code account_disconnected}, disconnects the account and charges nothing; a platform that
 * throttles Herald's create call is asked again after its {@code Retry-After} (Meta, which sends none, after Herald's
 * own backoff) and publishes once. HTTP only.
 */
@ResourceLock(RunningSuite.FACEBOOK_FAKE)
@ResourceLock(RunningSuite.INSTAGRAM_FAKE)
@ResourceLock(RunningSuite.LINKEDIN_FAKE)
@ResourceLock(RunningSuite.PINTEREST_FAKE)
@ResourceLock(RunningSuite.TIKTOK_FAKE)
@ResourceLock(RunningSuite.YOUTUBE_FAKE)
class LivePlatformFailuresIT {

    /** Each platform as a customer posts to it: the account to pick, the post's media and options, the create call. */
    enum Platform {
        LINKEDIN("urn:li:person:hF4k3Mbr0q", null, "{}", "POST", "/rest/posts", true),
        FACEBOOK(null, null, "{}", "POST", "/v[0-9.]+/[0-9]+/feed", false),
        INSTAGRAM(
                null,
                "{\"type\":\"image\",\"url\":\"https://media.example.com/light.jpg\"}",
                "{}",
                "POST",
                "/v[0-9.]+/[0-9]+/media",
                false),
        PINTEREST(
                null,
                "{\"type\":\"image\",\"url\":\"https://media.example.com/soup.jpg\"}",
                "{\"pinterest\":{\"board_id\":\"1125899906842625101\"}}",
                "POST",
                "/v5/pins",
                true),
        YOUTUBE(
                null,
                "LOCAL_VIDEO",
                "{\"youtube\":{\"privacy_status\":\"private\",\"made_for_kids\":false}}",
                "POST",
                "/upload/youtube/v3/videos",
                true),
        TIKTOK(
                null,
                "LOCAL_VIDEO",
                "{\"tiktok\":{\"privacy_level\":\"SELF_ONLY\"}}",
                "POST",
                "/v2/post/publish/video/init/",
                true);

        final String username;
        final String media;
        final String options;
        final String createMethod;
        final String createPath;
        /** Whether the platform sends {@code Retry-After} with its throttling answer (Meta's Graph does not). */
        final boolean sendsRetryAfter;

        Platform(
                String username,
                String media,
                String options,
                String createMethod,
                String createPath,
                boolean sendsRetryAfter) {
            this.username = username;
            this.media = media;
            this.options = options;
            this.createMethod = createMethod;
            this.createPath = createPath;
            this.sendsRetryAfter = sendsRetryAfter;
        }

        String wireName() {
            return name().toLowerCase();
        }

        String post(String accountId, String text) {
            String mediaJson = "LOCAL_VIDEO".equals(media)
                    ? "{\"type\":\"video\",\"url\":\"" + RunningSuite.get().providerFakesUrl() + "/_fakes/media/clip-"
                            + wireName() + ".mp4?bytes=262144\"}"
                    : media;
            return "{\"text\":\"" + text + "\",\"account_ids\":[\"" + accountId + "\"]"
                    + (mediaJson == null ? "" : ",\"media\":" + mediaJson) + ",\"platform_options\":" + options + "}";
        }
    }

    /**
     * TikTok's acceptance reads the creator's options with the account's token, so there the revoked grant is found
     * before any delivery: the account is disconnected at once and the post refused as one to a disconnected account.
     */
    @Test
    void aRevokedTikTokGrantIsFoundAtAcceptanceAndThePostRefusedForADisconnectedAccount() {
        LiveWorkspace live = LiveWorkspace.create("Revoked tiktok");
        String accountId = account(live, Platform.TIKTOK);
        fakes().post("/_fakes/tiktok/tokens/revoke").then().statusCode(200);

        as(live.key())
                .contentType(ContentType.JSON)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body(Platform.TIKTOK.post(accountId, "Never out " + UUID.randomUUID()))
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("account_reauth_required"))
                .body("error.details.account_id", equalTo(accountId))
                .body("error.details.field", equalTo("account_ids[0]"));
        assertThat(as(live.key())
                        .get("/accounts/" + accountId)
                        .then()
                        .statusCode(200)
                        .extract()
                        .<String>path("data.status"))
                .isEqualTo("disconnected");
        assertThat(as(live.key())
                        .get("/posts")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("data"))
                .isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = Platform.class, names = "TIKTOK", mode = EnumSource.Mode.EXCLUDE)
    void aRevokedGrantFailsTheTargetAsDisconnectedAndChargesNothing(Platform platform) throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Revoked " + platform.wireName());
        String accountId = account(live, platform);
        fakes().post("/_fakes/" + platform.wireName() + "/tokens/revoke").then().statusCode(200);
        String postId = live.post(platform.post(accountId, "Never out " + UUID.randomUUID()));

        JsonPath target = PostsPipelineIT.awaitPost(
                        live.key(),
                        postId,
                        post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                        Duration.ofSeconds(60).toMillis())
                .setRootPath("data.targets[0]");

        assertThat(target.getString("status")).as("%s target", platform).isEqualTo("failed");
        assertThat(target.getString("error.code")).as("%s error", platform).isEqualTo("account_disconnected");
        assertThat(target.getBoolean("error.retryable")).isFalse();
        assertThat(as(live.key())
                        .get("/accounts/" + accountId)
                        .then()
                        .statusCode(200)
                        .extract()
                        .<String>path("data.status"))
                .isEqualTo("disconnected");
        assertThat(PostsPipelineIT.awaitPublications(live.key(), PostsPipelineIT.meter(0, 0)))
                .as("%s publications", platform)
                .containsEntry("used", 0)
                .containsEntry("reserved", 0);
    }

    @ParameterizedTest
    @EnumSource(Platform.class)
    void aThrottledCreateCallIsMadeAgainAfterTheWaitAndPublishesOnce(Platform platform) throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Throttled " + platform.wireName());
        String accountId = account(live, platform);
        FakeRequests.clear(platform.wireName());
        fakes().contentType(ContentType.JSON)
                .body("{\"kind\":\"rate_limit\",\"method\":\"" + platform.createMethod + "\",\"path\":\""
                        + platform.createPath + "\",\"retry_after_seconds\":2}")
                .post("/_fakes/" + platform.wireName() + "/failures")
                .then()
                .statusCode(201);

        String text = "After the wait " + UUID.randomUUID();
        String postId = live.post(platform.post(accountId, text));
        JsonPath target = PostsPipelineIT.awaitPost(
                        live.key(),
                        postId,
                        post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                        Duration.ofSeconds(90).toMillis())
                .setRootPath("data.targets[0]");

        assertThat(target.getString("status"))
                .as("%s target: %s", platform, target.prettify())
                .isEqualTo("published");
        assertThat(target.getInt("attempts")).isEqualTo(2);
        List<Map<String, Object>> creates = FakeRequests.of(platform.wireName()).stream()
                .filter(request -> platform.createMethod.equals(request.get("method"))
                        && ((String) request.get("path")).matches(platform.createPath))
                .toList();
        assertThat(creates)
                .extracting(request -> request.get("failure") + " " + request.get("status"))
                .as("%s create calls", platform)
                .hasSize(2)
                .first()
                .asString()
                .startsWith("rate_limit ");
        assertThat(creates.get(1).get("failure")).isNull();
        if (platform.sendsRetryAfter) {
            Instant limited = Instant.parse((String) creates.get(0).get("received_at"));
            Instant retried = Instant.parse((String) creates.get(1).get("received_at"));
            assertThat(Duration.between(limited, retried))
                    .as("%s waited", platform)
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        }
    }

    private static String account(LiveWorkspace live, Platform platform) {
        List<Map<String, Object>> accounts = HostedConnect.connect(live, platform.wireName());
        return platform.username == null
                ? (String) accounts.get(0).get("id")
                : HostedConnect.accountNamed(accounts, platform.username);
    }
}
