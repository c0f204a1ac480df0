package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.local.HeraldService;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * OWASP API3:2023 (broken object property level authorization: a secret is a property shown once) and API8:2023
 * (security misconfiguration: secrets in logs). Every kind of secret the API hands out is created and used
 * through the gateway; afterwards no response but the creating one shows it, and no line of any log of the running
 * suite (every service, Kafka, PostgreSQL) contains it, nor anything shaped like an API key or a webhook secret.
 */
class Api3Api8SecretExposureIT {
    /** Anything shaped like a Herald API key or webhook signing secret, whoever created it. */
    private static final Pattern SECRET_SHAPES =
            Pattern.compile("sk_(test|live)_[A-Za-z0-9]{32}|whsec_[A-Za-z0-9+/=_-]{16,}");

    @Test
    void api3_api8_noSecretAppearsInALaterResponseOrInAnyLogLine() throws Exception {
        String workspace = RunningSuite.newWorkspace("API3 secrets");
        SecuritySupport.retrying503(() -> RunningSuite.admin()
                        .body("{\"mode\":\"test\",\"plan\":\"scale\",\"plan_source\":\"comp\"}")
                        .put("/admin/v1/workspaces/" + workspace + "/plan"))
                .then()
                .statusCode(200);
        Map<String, String> secrets = new LinkedHashMap<>();

        // An API key, used for everything below; a second one revoked.
        JsonPath key = RunningSuite.admin()
                .body("{\"mode\":\"test\"}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        String apiKey = key.getString("data.secret");
        secrets.put("API key", apiKey);
        JsonPath revoked = RunningSuite.admin()
                .body("{\"mode\":\"test\"}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        secrets.put("revoked API key", revoked.getString("data.secret"));
        as(revoked.getString("data.secret")).get("/profiles").then().statusCode(200);
        RunningSuite.admin()
                .delete("/admin/v1/api-keys/" + revoked.getString("data.id"))
                .then()
                .statusCode(200)
                .body("data.secret", org.hamcrest.Matchers.nullValue());
        as(revoked.getString("data.secret")).get("/profiles").then().statusCode(401);

        // An OAuth client's secret and an access token made with it.
        JsonPath client = RunningSuite.admin()
                .body("{\"mode\":\"test\",\"scopes\":[\"profiles:read\"]}")
                .post("/admin/v1/workspaces/" + workspace + "/oauth-clients")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        secrets.put("OAuth client secret", client.getString("data.client_secret"));
        String token = RestAssured.given()
                .baseUri(RunningSuite.get().gatewayUrl())
                .auth()
                .preemptive()
                .basic(client.getString("data.client_id"), client.getString("data.client_secret"))
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .post("/oauth/token")
                .then()
                .statusCode(200)
                .extract()
                .path("access_token");
        secrets.put("OAuth access token", token);
        as(token).get("/profiles").then().statusCode(200);
        // A wrong client secret is refused without being echoed or logged either.
        String wrongSecret = client.getString("data.client_secret") + "x";
        secrets.put("a wrong OAuth client secret", wrongSecret);
        RestAssured.given()
                .baseUri(RunningSuite.get().gatewayUrl())
                .auth()
                .preemptive()
                .basic(client.getString("data.client_id"), wrongSecret)
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .post("/oauth/token")
                .then()
                .statusCode(401);

        // A webhook endpoint's secret, its rotated successor, and deliveries signed with both.
        WebhooksIT.Receiver receiver = new WebhooksIT.Receiver(n -> n == 1 ? 500 : 200);
        String endpoint;
        try {
            WebhooksIT.Endpoint registered = WebhooksIT.register(apiKey, receiver.url(), "post.published");
            endpoint = registered.id();
            secrets.put("webhook secret", registered.secret());
            assertThat(registered.secret()).startsWith("whsec_");
            String rotated = as(apiKey)
                    .post("/webhooks/" + endpoint + "/rotate-secret")
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("data.secret");
            secrets.put("rotated webhook secret", rotated);
            as(apiKey).post("/webhooks/" + endpoint + "/test").then().statusCode(202);
            // The first attempt fails (500) and is retried, so the failure path is logged too.
            receiver.awaitRequests(2, 20_000);
            receiver.requests().forEach(request -> request.verify(rotated));
        } finally {
            receiver.close();
        }

        // A hosted connect link: its token is the capability, shown once in the URL.
        String profile = as(apiKey)
                .contentType(ContentType.JSON)
                .body("{\"name\":\"Secrets\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        Response session = SecuritySupport.retrying503(() -> as(apiKey)
                .contentType(ContentType.JSON)
                .body("{\"profile_id\":\"" + profile + "\"}")
                .post("/connect-sessions"));
        String url = session.then().statusCode(201).extract().path("data.url");
        String sessionId = session.path("data.id");
        String connectToken = url.substring(url.lastIndexOf('/') + 1);
        assertThat(connectToken).hasSizeGreaterThanOrEqualTo(20);
        secrets.put("connect URL token", connectToken);
        // The end user opens the link, as the hosted page's own requests would log it.
        java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                                .timeout(java.time.Duration.ofSeconds(30))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding());

        // Every later read that could show them.
        SoftAssertions softly = new SoftAssertions();
        Map<String, String> laterResponses = new LinkedHashMap<>();
        for (String path : List.of(
                "/webhooks/" + endpoint,
                "/webhooks",
                "/deliveries",
                "/deliveries?endpoint_id=" + endpoint,
                "/connect-sessions/" + sessionId,
                "/profiles/" + profile,
                "/logs",
                "/logs?limit=100",
                "/usage")) {
            laterResponses.put(
                    "GET " + path,
                    as(apiKey).get(path).then().statusCode(200).extract().asString());
        }
        laterResponses.put(
                "DELETE /connect-sessions/" + sessionId,
                as(apiKey)
                        .delete("/connect-sessions/" + sessionId)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());
        laterResponses.put(
                "DELETE /webhooks/" + endpoint,
                as(apiKey)
                        .delete("/webhooks/" + endpoint)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());
        laterResponses.forEach((what, body) -> secrets.forEach((name, secret) ->
                softly.assertThat(body).as(what + " shows no " + name).doesNotContain(secret)));

        // Every log of the running suite. Logs are written asynchronously: give them a moment.
        Thread.sleep(1500);
        Map<String, String> logs = new LinkedHashMap<>();
        Path logDirectory = RunningSuite.get().logFile("api-gateway").getParent();
        for (HeraldService service : HeraldService.values()) {
            Path log = RunningSuite.get().logFile(service.module());
            assertThat(log).as("the log of " + service.module()).exists();
            logs.put(service.module(), Files.readString(log, StandardCharsets.UTF_8));
        }
        try (var files = Files.list(logDirectory)) {
            for (Path file :
                    files.filter(file -> file.toString().endsWith(".log")).toList()) {
                logs.putIfAbsent(file.getFileName().toString(), read(file));
            }
        }
        assertThat(logs).as("service logs, plus Kafka's and PostgreSQL's").containsKeys("kafka.log");
        // The suite's own secrets too: the admin token, the demo keys, the cipher key that seals stored secrets.
        secrets.put("admin token", RunningSuite.get().adminToken());
        secrets.put("demo test key", RunningSuite.get().demoTestKey());
        secrets.put("demo live key", RunningSuite.get().demoLiveKey());
        secrets.put("cursor secret", RunningSuite.get().secrets().cursorSecret());
        String cipherKey = RunningSuite.get().secrets().secretCipherKey();
        secrets.put("secret cipher key", cipherKey.substring(cipherKey.indexOf(':') + 1));
        logs.forEach((log, text) -> {
            secrets.forEach((name, secret) ->
                    softly.assertThat(text).as(log + " contains no " + name).doesNotContain(secret));
            List<String> shaped = new ArrayList<>();
            Matcher matcher = SECRET_SHAPES.matcher(text);
            while (matcher.find()) {
                shaped.add(matcher.group());
            }
            softly.assertThat(shaped)
                    .as(log + " contains nothing shaped like a key or webhook secret")
                    .isEmpty();
        });
        softly.assertAll();
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
