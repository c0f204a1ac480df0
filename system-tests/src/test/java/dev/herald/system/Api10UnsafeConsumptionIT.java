package dev.herald.system;

import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * OWASP API10, unsafe consumption of APIs: the platforms' answers are untrusted. Through the gateway, a post to a live
 * account whose platform (the provider fakes) answers 50 MiB, declared or chunked, malformed JSON or a 10,000-character
 * post id ends {@code failed} with a precise {@code provider_error} that names the platform and the reason and echoes
 * nothing of the answer; a {@code javascript:} permalink is never shown. The next post to the same account publishes:
 * the suite stays healthy.
 */
@ResourceLock(RunningSuite.PINTEREST_FAKE)
@ResourceLock(RunningSuite.INSTAGRAM_FAKE)
class Api10UnsafeConsumptionIT {
    private static final String PIN_OPTIONS = "{\"pinterest\":{\"board_id\":\"1125899906842625101\"}}";

    @ParameterizedTest
    @CsvSource({
        "huge_answer, answer_too_large",
        "huge_chunked_answer, answer_too_large",
        "malformed_answer, answer_not_json",
        "unsafe_id, unsafe_post_id"
    })
    void aPinWhosePlatformAnswersBadlyFailsPreciselyAndTheNextOnePublishes(String kind, String reason) {
        LiveWorkspace live = LiveWorkspace.create("API10 " + kind);
        String accountId =
                HostedConnect.connect(live, "pinterest").get(0).get("id").toString();
        arm("pinterest", kind, "POST", "/v5/pins");

        JsonPath failed = finalTarget(live, live.post(pin(accountId, "Untrusted " + UUID.randomUUID())));

        assertThat(failed.getString("status")).as(failed.prettify()).isEqualTo("failed");
        assertThat(failed.getString("error.code")).isEqualTo("provider_error");
        assertThat(failed.getBoolean("error.retryable")).isFalse();
        assertThat(failed.getString("error.details.platform")).isEqualTo("pinterest");
        assertThat(failed.getString("error.details.reason")).isEqualTo(reason);
        assertThat(failed.getString("error.message")).startsWith("Pinterest accepted the call, but ");
        assertThat(failed.prettify()).doesNotContain("9999999999").hasSizeLessThan(4096);
        assertThat(failed.getString("provider_post_id")).isNull();

        JsonPath next = finalTarget(live, live.post(pin(accountId, "Healthy " + UUID.randomUUID())));
        assertThat(next.getString("status")).as(next.prettify()).isEqualTo("published");
    }

    @Test
    void aJavascriptPermalinkIsNeverShown() {
        LiveWorkspace live = LiveWorkspace.create("API10 permalink");
        String accountId =
                HostedConnect.connect(live, "instagram").get(0).get("id").toString();
        // Every read of a node (the container's status, then the published media's permalink): only the permalink
        // read's answer has a link to spoil.
        arm("instagram", "unsafe_link", "GET", "/v[0-9.]+/[0-9]+", 20);
        try {
            JsonPath target = finalTarget(
                    live,
                    live.post("{\"text\":\"Untrusted link " + UUID.randomUUID() + "\",\"account_ids\":[\""
                            + accountId
                            + "\"],\"media\":{\"type\":\"image\",\"url\":\"https://media.example.com/light.jpg\"}}"));

            assertThat(target.getString("status")).as(target.prettify()).isEqualTo("published");
            assertThat(target.getString("provider_post_id")).isNotBlank();
            assertThat(target.getString("url")).isNull();
            assertThat(target.prettify()).doesNotContainIgnoringCase("javascript:");
            assertThat(FakeRequests.of("instagram"))
                    .as("the permalink was read, and spoiled")
                    .anyMatch(request -> "unsafe_link".equals(request.get("failure"))
                            && String.valueOf(request.get("raw_query")).contains("permalink"));
        } finally {
            fakes().delete("/_fakes/instagram/failures").then().statusCode(204);
        }
    }

    private static void arm(String platform, String kind, String method, String path) {
        arm(platform, kind, method, path, 1);
    }

    private static void arm(String platform, String kind, String method, String path, int times) {
        FakeRequests.clear(platform);
        fakes().contentType(ContentType.JSON)
                .body("{\"kind\":\"" + kind + "\",\"method\":\"" + method + "\",\"path\":\"" + path + "\",\"times\":"
                        + times + "}")
                .post("/_fakes/" + platform + "/failures")
                .then()
                .statusCode(201);
    }

    private static String pin(String accountId, String text) {
        return "{\"text\":\"" + text + "\",\"account_ids\":[\"" + accountId
                + "\"],\"media\":{\"type\":\"image\",\"url\":\"https://media.example.com/soup.jpg\"},"
                + "\"platform_options\":" + PIN_OPTIONS + "}";
    }

    private static JsonPath finalTarget(LiveWorkspace live, String postId) {
        try {
            return PostsPipelineIT.awaitPost(
                            live.key(),
                            postId,
                            post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                            Duration.ofSeconds(90).toMillis())
                    .setRootPath("data.targets[0]");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
