package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.system.HostedConnect.LiveWorkspace;
import dev.herald.system.LivePlatformFailuresIT.Platform;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Connection health in live mode against the six platforms' fakes, through the gateway: a grant the user revoked at
 * the platform is found by a health check as {@code reauth_required} with the platform's own reason, a platform
 * answering 503 or not at all never changes health, a post to a broken account is refused with its reconnect link,
 * and a target whose grant was revoked before it went out waits until the account is reconnected through its link,
 * then publishes once and is charged once. The job's own schedule (checks every 6 h, renewals, backoff over ten
 * minutes of outage) is accounts-service's AccountHealthJobTest; here {@code POST /accounts/{id}/health-check} runs
 * a check on demand.
 */
@ResourceLock(RunningSuite.FACEBOOK_FAKE)
@ResourceLock(RunningSuite.INSTAGRAM_FAKE)
@ResourceLock(RunningSuite.LINKEDIN_FAKE)
@ResourceLock(RunningSuite.PINTEREST_FAKE)
@ResourceLock(RunningSuite.TIKTOK_FAKE)
@ResourceLock(RunningSuite.YOUTUBE_FAKE)
class LiveConnectionHealthIT {

    @ParameterizedTest
    @EnumSource(Platform.class)
    void aRevokedGrantIsFoundByAHealthCheckWithThePlatformsReasonAndItsLinkReconnectsTheSameAccount(Platform platform) {
        LiveWorkspace live = LiveWorkspace.create("Health " + platform.wireName());
        String accountId = LivePlatformFailuresIT.account(live, platform);
        assertThat(healthOf(live, accountId).getString("data.health.status")).isEqualTo("healthy");
        fakes().post("/_fakes/" + platform.wireName() + "/tokens/revoke").then().statusCode(200);

        JsonPath checked = as(live.key())
                .post("/accounts/" + accountId + "/health-check")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(checked.getString("data.health.status")).as("%s", platform).isEqualTo("reauth_required");
        assertThat(checked.getString("data.health.reason"))
                .as("%s keeps the platform's answer", platform)
                .contains(revokedReason(platform));
        assertThat(checked.getString("data.status")).isEqualTo("connected");

        String reconnectUrl = as(live.key())
                .post("/accounts/" + accountId + "/reconnect-link")
                .then()
                .statusCode(200)
                .extract()
                .path("data.url");
        List<Map<String, Object>> after = HostedConnect.reconnect(live, reconnectUrl, platform.wireName());
        assertThat(after).extracting(account -> account.get("id")).contains(accountId);
        JsonPath healthy = healthOf(live, accountId);
        assertThat(healthy.getString("data.health.status")).as("%s", platform).isEqualTo("healthy");
        assertThat(healthy.getString("data.health.reason")).isNull();
    }

    @ParameterizedTest
    @EnumSource(Platform.class)
    void aPlatformAnswering503OrNotAtAllNeverChangesHealth(Platform platform) {
        LiveWorkspace live = LiveWorkspace.create("Outage " + platform.wireName());
        String accountId = LivePlatformFailuresIT.account(live, platform);
        try {
            arm(platform, "{\"kind\":\"server_error\",\"status\":503,\"times\":50}");
            as(live.key())
                    .post("/accounts/" + accountId + "/health-check")
                    .then()
                    .statusCode(502)
                    .body("error.code", equalTo("provider_error"))
                    .body("error.details.retryable", equalTo(true));
            fakes().delete("/_fakes/" + platform.wireName() + "/failures")
                    .then()
                    .statusCode(204);
            arm(platform, "{\"kind\":\"delay\",\"delay_ms\":30000,\"times\":50}");
            as(live.key())
                    .post("/accounts/" + accountId + "/health-check")
                    .then()
                    .statusCode(502)
                    .body("error.details.retryable", equalTo(true));
        } finally {
            fakes().delete("/_fakes/" + platform.wireName() + "/failures")
                    .then()
                    .statusCode(204);
        }
        JsonPath account = healthOf(live, accountId);
        assertThat(account.getString("data.health.status")).as("%s", platform).isEqualTo("healthy");
        assertThat(account.getString("data.health.reason")).isNull();
    }

    /**
     * Revoked after the post was accepted: the delivery's access attempt finds the grant refused, the account turns
     * reauth_required and the target waits; reconnected through its link, it publishes once.
     */
    @ParameterizedTest
    @EnumSource(value = Platform.class, names = "TIKTOK", mode = EnumSource.Mode.EXCLUDE)
    void aTargetWhoseGrantWasRevokedWaitsForTheReconnectionThenPublishesOnce(Platform platform) throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Held " + platform.wireName());
        String accountId = LivePlatformFailuresIT.account(live, platform);
        fakes().post("/_fakes/" + platform.wireName() + "/tokens/revoke").then().statusCode(200);
        String postId = live.post(platform.post(accountId, "After the reconnection " + UUID.randomUUID()));

        ConnectionHealthIT.awaitAccount(
                live.key(), accountId, ConnectionHealthIT.health("reauth_required"), Duration.ofSeconds(30));
        ConnectionHealthIT.awaitHeldTarget(live.key(), postId);

        String reconnectUrl = as(live.key())
                .post("/accounts/" + accountId + "/reconnect-link")
                .then()
                .statusCode(200)
                .extract()
                .path("data.url");
        HostedConnect.reconnect(live, reconnectUrl, platform.wireName());

        JsonPath done = PostsPipelineIT.awaitPost(
                live.key(),
                postId,
                post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                Duration.ofSeconds(90).toMillis());
        assertThat(done.getString("data.status"))
                .as("%s: %s", platform, done.prettify())
                .isEqualTo("published");
        assertThat(PostsPipelineIT.awaitPublications(live.key(), PostsPipelineIT.meter(1, 0)))
                .as("%s publications", platform)
                .containsEntry("used", 1)
                .containsEntry("reserved", 0);
    }

    /**
     * TikTok's acceptance reads the creator's options with the account's token, so there the revoked grant is found
     * before any delivery: the post is refused with the reconnect link and nothing is accepted.
     */
    @Test
    void aRevokedTikTokGrantIsFoundAtAcceptanceAndThePostRefusedWithTheReconnectLink() {
        LiveWorkspace live = LiveWorkspace.create("Revoked tiktok");
        String accountId = LivePlatformFailuresIT.account(live, Platform.TIKTOK);
        fakes().post("/_fakes/tiktok/tokens/revoke").then().statusCode(200);

        JsonPath refused = as(live.key())
                .contentType(ContentType.JSON)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body(Platform.TIKTOK.post(accountId, "Never out " + UUID.randomUUID()))
                .post("/posts")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("account_reauth_required"))
                .body("error.details.account_id", equalTo(accountId))
                .extract()
                .jsonPath();
        assertThat(refused.getString("error.details.reconnect_url")).contains("/connect/reconnect/");
        JsonPath account = healthOf(live, accountId);
        assertThat(account.getString("data.health.status")).isEqualTo("reauth_required");
        assertThat(account.getString("data.status")).isEqualTo("connected");
        assertThat(as(live.key())
                        .get("/posts")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("data"))
                .isEmpty();
    }

    /** What each platform answers a revoked grant with, as the account's health reason keeps it. */
    private static String revokedReason(Platform platform) {
        return switch (platform) {
            case TIKTOK -> "access_token_invalid";
            case FACEBOOK, INSTAGRAM -> "190";
            // LinkedIn's token introspection answers 200 with the token's status.
            case LINKEDIN -> "token_revoked";
            case PINTEREST -> "Authentication failed";
            // Google's tokeninfo.
            case YOUTUBE -> "invalid_token";
        };
    }

    private static void arm(Platform platform, String failure) {
        fakes().contentType(ContentType.JSON)
                .body(failure)
                .post("/_fakes/" + platform.wireName() + "/failures")
                .then()
                .statusCode(201);
    }

    private static JsonPath healthOf(LiveWorkspace live, String accountId) {
        return as(live.key())
                .get("/accounts/" + accountId)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }
}
