package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.SecuritySupport.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.SecuritySupport.Route;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * OWASP API4:2023, unrestricted resource consumption, at the edge: bodies over the gateway's 1 MiB are refused
 * before they are read (declared or chunked), JSON nested ten thousand levels deep is a 400 on every route that
 * takes a body (not a 500, not a stack overflow, not a hang), and huge query strings and repeated parameters are
 * refused with the envelope.
 */
class Api4ResourceConsumptionIT {
    private static final int MIB = 1024 * 1024;
    private static String key;

    @BeforeAll
    static void key() {
        key = SecuritySupport.scopedTestKey("API4");
    }

    private static JsonPath json(RawHttp.Answer answer) {
        return JsonPath.from(answer.body());
    }

    private static void assertEnvelope(RawHttp.Answer answer, int status, String code) {
        assertThat(answer.status()).as("status of " + answer).isEqualTo(status);
        assertThat(json(answer).getString("error.code")).isEqualTo(code);
        assertThat(json(answer).getString("request_id"))
                .isEqualTo(answer.header("x-request-id"))
                .isNotBlank();
        assertThat(answer.header("X-RateLimit-Limit")).isNotNull();
    }

    @Test
    void api4_aBodyOverOneMebibyteIsRefusedWith413BeforeItIsRead() throws Exception {
        // Declared: the gateway answers from the Content-Length alone; the body is never sent.
        RawHttp.Answer declared = RawHttp.exchange(
                RawHttp.head(
                        "POST",
                        "/api/v1/profiles",
                        key,
                        "Content-Type: application/json",
                        "Content-Length: " + (MIB + 1)),
                null);
        assertEnvelope(declared, 413, "payload_too_large");

        // Chunked: no length up front, so the gateway counts as it reads and stops past the limit.
        byte[] spaces = new byte[64 * 1024];
        java.util.Arrays.fill(spaces, (byte) ' ');
        java.io.ByteArrayOutputStream chunked = new java.io.ByteArrayOutputStream();
        List<byte[]> chunks = new java.util.ArrayList<>(List.of("{\"name\":\"".getBytes(StandardCharsets.US_ASCII)));
        for (int i = 0; i < 17; i++) {
            chunks.add(spaces);
        }
        for (byte[] chunk : chunks) {
            chunked.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            chunked.write(chunk);
            chunked.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        chunked.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        RawHttp.Answer streamed = RawHttp.exchange(
                RawHttp.head(
                        "POST",
                        "/api/v1/profiles",
                        key,
                        "Content-Type: application/json",
                        "Transfer-Encoding: chunked"),
                chunked.toByteArray());
        assertEnvelope(streamed, 413, "payload_too_large");

        // Exactly 1 MiB is read and reaches the service, which judges the content (a name far too long).
        String name = "n".repeat(MIB - "{\"name\":\"\"}".length());
        Response atTheLimit = as(key).contentType(ContentType.JSON)
                .body("{\"name\":\"" + name + "\"}")
                .post("/profiles");
        assertThat(atTheLimit.statusCode()).isEqualTo(422);
        assertThat(as(key).get("/profiles")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("data"))
                .isEmpty();
    }

    /** {@code depth} nested levels of {@code open}..{@code close} around a value. */
    private static String nested(String open, String close, int depth) {
        return open.repeat(depth) + "1" + close.repeat(depth);
    }

    @Test
    void api4_jsonNestedTenThousandLevelsDeepIs400OnEveryRouteWithABody() {
        SoftAssertions softly = new SoftAssertions();
        List<String> bodies = List.of(
                nested("[", "]", 10_000),
                nested("{\"a\":", "}", 10_000),
                "{\"name\":\"x\",\"external_id\":" + nested("[", "]", 10_000) + "}");
        int routes = 0;
        for (Route route : SecuritySupport.catalog()) {
            if (!route.hasBody()) {
                continue;
            }
            routes++;
            String path = SecuritySupport.fill(
                    route.template(),
                    variable -> variable.equals("board_id") ? "1" : SecuritySupport.unknownId(route.template()));
            for (String body : bodies) {
                long started = System.nanoTime();
                Response response = SecuritySupport.call(key, route, path, body);
                long millis = (System.nanoTime() - started) / 1_000_000;
                String what = route + " with " + body.substring(0, 12) + "... (" + body.length() + " bytes)";
                assertError(softly, what, response, 400, "invalid_request");
                softly.assertThat(millis).as(what + ": answered, not hung").isLessThan(15_000);
            }
        }
        softly.assertAll();
        assertThat(routes).isGreaterThanOrEqualTo(12);
        // Nothing was created by any of them.
        assertThat(as(key).get("/profiles")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("data"))
                .isEmpty();
        assertThat(as(key).get("/webhooks")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("data"))
                .isEmpty();
    }

    @Test
    void api4_hugeQueryStringsAndRepeatedParametersAreRefusedWithTheEnvelope() throws Exception {
        SoftAssertions softly = new SoftAssertions();
        // Over the documented bounds but within what HTTP carries: the service's own 400.
        assertError(
                softly,
                "q of 10,000 characters",
                as(key).queryParam("q", "x".repeat(10_000)).get("/profiles"),
                400,
                "invalid_request");
        assertError(
                softly,
                "a cursor over its 4,096 characters",
                as(key).queryParam("cursor", "A".repeat(10_000)).get("/profiles"),
                400,
                "invalid_request");
        assertError(
                softly,
                "a forged cursor of 4,096 characters",
                as(key).queryParam("cursor", "A".repeat(4096)).get("/profiles"),
                400,
                "invalid_cursor");
        // (Sent raw: HTTP clients refuse to send a malformed percent-encoding.) Vert.x refuses the URI before any
        // route runs, so the 400 is bare like the codec's refusals below (no Herald handler sees it); never a 500.
        RawHttp.Answer malformed = RawHttp.exchange(RawHttp.head("GET", "/api/v1/profiles?q=%zz&limit=%", key), null);
        softly.assertThat(malformed.status())
                .as("a malformed percent-encoding (" + malformed.body() + ")")
                .isEqualTo(400);
        // Conflicting repeated values: which one counts would be a guess, and a layer in front that guessed
        // differently (a cache, a firewall) would have seen another request than the service.
        StringBuilder repeated = new StringBuilder("/api/v1/profiles?limit=1");
        for (int i = 0; i < 500; i++) {
            repeated.append("&limit=").append(i % 100 + 1);
        }
        RawHttp.Answer manyLimits = RawHttp.exchange(RawHttp.head("GET", repeated.toString(), key), null);
        softly.assertThat(manyLimits.status())
                .as("500 repeated limit parameters")
                .isEqualTo(400);
        softly.assertThat(manyLimits.body())
                .as("500 repeated limit parameters")
                .contains("\"code\":\"invalid_request\"")
                .contains("\"parameter\":\"limit\"");
        // Thousands of distinct unknown parameters: ignored, promptly.
        StringBuilder many = new StringBuilder("/api/v1/profiles?limit=1");
        for (int i = 0; i < 1500; i++) {
            many.append("&p").append(i).append("=1");
        }
        RawHttp.Answer manyParameters = RawHttp.exchange(RawHttp.head("GET", many.toString(), key), null);
        softly.assertThat(manyParameters.status())
                .as("1,500 distinct parameters")
                .isEqualTo(200);
        softly.assertThat(manyParameters.millis()).isLessThan(15_000);

        // Over what the gateway's HTTP codec reads at all (a 16 KiB request line, 20 KiB of headers): refused by the
        // codec before any of Herald's code runs, so with the bare status and no envelope (Quarkus 3.29 offers no
        // hook there), and the connection is closed rather than left hanging.
        RawHttp.Answer longLine =
                RawHttp.exchange(RawHttp.head("GET", "/api/v1/profiles?q=" + "x".repeat(20_000), key), null);
        softly.assertThat(longLine.status())
                .as("a 20,000 character request line")
                .isEqualTo(414);
        softly.assertThat(longLine.millis()).isLessThan(15_000);
        RawHttp.Answer bigHeader = RawHttp.exchange(
                RawHttp.head("GET", "/api/v1/profiles", key, "X-Padding: " + "x".repeat(70_000)), null);
        softly.assertThat(bigHeader.status()).as("a 70,000 character header").isEqualTo(431);
        softly.assertThat(bigHeader.millis()).isLessThan(15_000);
        softly.assertAll();
    }

    @Test
    void api4_anIdempotencyKeyFarOverItsLimitIsRefusedNotStored() {
        String idempotencyKey = "k".repeat(4000) + UUID.randomUUID();
        Response response = as(key).contentType(ContentType.JSON)
                .header("Idempotency-Key", idempotencyKey)
                .body("{\"text\":\"x\",\"account_ids\":[\"acc_000000000000000000000000\"]}")
                .post("/posts");
        assertError(response, 400, "invalid_request");
    }
}
