package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * OWASP API7:2023, server side request forgery, through the gateway. This suite runs Herald as {@code ./herald up}
 * does, where local media and local webhook receivers must work: posts-service and delivery-worker
 * allow private media URLs, webhooks-service private receivers. So the address rules are proven where they are on:
 * media in posts-service's {@code MediaUrlGuardTest} (acceptance) and delivery-worker's {@code MediaSourceTest} (at
 * transfer, against DNS rebinding), with common's {@code PublicAddressesTest}; webhooks in webhooks-service's {@code
 * PublicAddressesOnlyTest} and {@code PostFinalizedDeliveryTest} (redirects are never followed). Here, only what holds
 * even locally: no scheme but http(s), no credentials in a webhook URL, no address in a notation that fetchers read
 * differently.
 */
class Api7ServerSideRequestForgeryIT {
    private static final List<String> REFUSED_EVEN_LOCALLY = List.of(
            "https://2130706433/a.jpg",
            "https://0x7f000001/a.jpg",
            "https://0177.0.0.1/a.jpg",
            "ftp://127.0.0.1/a.jpg",
            "file:///etc/passwd",
            "gopher://127.0.0.1:6379/_INFO");

    @Test
    void api7_mediaUrlsWithOtherSchemesOrAddressNotationsAreRefusedWithAPrecise422() {
        String key = SecuritySupport.scopedTestKey("API7 media");
        String account = SecuritySupport.retrying503(() -> as(key).contentType(ContentType.JSON)
                        .body("{\"platform\":\"linkedin\",\"username\":\"brand\"}")
                        .post("/accounts"))
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        SoftAssertions softly = new SoftAssertions();
        for (String url : REFUSED_EVEN_LOCALLY) {
            Response response = SecuritySupport.retrying503(() -> as(key).contentType(ContentType.JSON)
                    .header("Idempotency-Key", UUID.randomUUID().toString())
                    .body("{\"text\":\"Look\",\"account_ids\":[\"" + account + "\"],\"media\":{\"url\":\"" + url
                            + "\",\"type\":\"image\"}}")
                    .post("/posts"));
            SecuritySupport.assertError(softly, "media " + url, response, 422, "validation_failed");
            List<Map<String, Object>> errors = response.jsonPath().getList("error.details.errors");
            softly.assertThat(errors)
                    .as("media " + url + ": the one failing field")
                    .hasSize(1);
            if (errors != null && errors.size() == 1) {
                softly.assertThat(errors.get(0)).as("media " + url).containsEntry("field", "media.url");
                softly.assertThat((String) errors.get(0).get("message"))
                        .as("media " + url + ": the message")
                        .matches("media\\.url must (be an absolute http or https URL"
                                + "|name its host or give an IPv4 address as four decimal numbers \\(.+\\))\\.");
            }
        }
        softly.assertAll();
        // Nothing was accepted, and a public media URL is (the refusals above are about the URL alone).
        assertThat(as(key).get("/posts")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("data"))
                .isEmpty();
        as(key).contentType(ContentType.JSON)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"text\":\"Look\",\"account_ids\":[\"" + account
                        + "\"],\"media\":{\"url\":\"https://93.184.216.34/a.jpg\",\"type\":\"image\"}}")
                .post("/posts")
                .then()
                .statusCode(202);
    }

    @Test
    void api7_webhookUrlsWithOtherSchemesOrCredentialsAreRefusedEvenWhereLocalReceiversAreAllowed() {
        String key = SecuritySupport.scopedTestKey("API7 webhooks");
        SoftAssertions softly = new SoftAssertions();
        for (String url : List.of(
                "file:///etc/passwd",
                "gopher://127.0.0.1:6379/_INFO",
                "ftp://127.0.0.1/",
                "dict://127.0.0.1:11211/",
                "jar:http://127.0.0.1/x!/",
                "http://user:pass@127.0.0.1/hooks",
                "https://169.254.169.254@evil.example/")) {
            Response response = as(key).contentType(ContentType.JSON)
                    .body("{\"url\":\"" + url + "\",\"events\":[\"post.published\"]}")
                    .post("/webhooks");
            SecuritySupport.assertError(softly, "webhook " + url, response, 422, "validation_failed");
            JsonPath body = response.jsonPath();
            softly.assertThat(body.getString("error.details.errors[0].field"))
                    .as("webhook " + url)
                    .isEqualTo("url");
            softly.assertThat(body.getString("error.details.errors[0].message"))
                    .as("webhook " + url)
                    .startsWith("url must");
        }
        softly.assertAll();
        assertThat(as(key).get("/webhooks")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("data"))
                .isEmpty();
    }
}
