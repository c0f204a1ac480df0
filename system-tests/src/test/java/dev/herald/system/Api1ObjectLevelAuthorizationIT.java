package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.SecuritySupport.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.SecuritySupport.Route;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * OWASP API1:2023, broken object level authorization. One workspace (the owner) holds a real resource for every
 * id-taking route of the gateway's catalog; another workspace's key, and the owner's own key of the other mode,
 * try every one of those routes with the owner's real ids. Each must answer exactly what an id that does not exist
 * answers ({@code 404 not_found}: existence is not leaked), and afterwards the owner reads everything back
 * unchanged. Also cursors (API1 through pagination): a cursor is bound to its list, filters, workspace and mode.
 */
class Api1ObjectLevelAuthorizationIT {
    private static final List<Route> CATALOG = SecuritySupport.catalog();
    private static Owner owner;

    /** The owner's resources: one per kind of id the catalog's routes take. */
    record Owner(
            String testKey,
            String liveKey,
            String profile,
            String linkedin,
            String youtube,
            String tiktok,
            String pinterest,
            String board,
            String session,
            String post,
            String series,
            String webhook,
            String delivery,
            WebhooksIT.Receiver receiver) {

        /** The owner's real id for each variable of the route's template. */
        String id(Route route, String variable) {
            String template = route.template();
            if (variable.equals("board_id")) {
                return board;
            }
            return switch (template.split("/")[1]) {
                case "profiles" -> profile;
                case "accounts" ->
                    template.endsWith("/analytics-consent")
                            ? youtube
                            : template.endsWith("/publishing-options")
                                    ? tiktok
                                    : template.contains("/boards") ? pinterest : linkedin;
                case "connect-sessions" -> session;
                case "posts" -> post;
                case "post-series" -> series;
                case "webhooks" -> webhook;
                case "deliveries" -> delivery;
                default -> throw new AssertionError("no owner resource for " + route + ": add one to the fixture");
            };
        }

        /** A body the owner could send successfully, so only the id can be the reason for a refusal. */
        static String body(Route route) {
            if (route.template().equals("/profiles/{id}/queue")) {
                return QUEUE_TAKEN_OVER;
            }
            if (route.template().equals("/profiles/{id}")) {
                return "{\"name\":\"Taken over\",\"external_id\":\"taken-over\"}";
            }
            if (route.template().equals("/accounts/{id}")) {
                return "{\"profile_id\":null}";
            }
            if (route.method().equals("PATCH") && route.template().equals("/webhooks/{id}")) {
                return "{\"description\":\"Taken over\",\"events\":[\"post.failed\"]}";
            }
            if (route.template().endsWith("/analytics-consent")) {
                return "{\"accepted\":true,\"policy_version\":\"2026-09-01\"}";
            }
            return "";
        }

        /** Everything the owner can read about its resources, as the owner reads it. */
        Map<String, Object> snapshot() {
            Map<String, Object> state = new LinkedHashMap<>();
            for (String path : List.of(
                    "/profiles/" + profile,
                    "/profiles/" + profile + "/queue",
                    "/accounts/" + linkedin,
                    "/accounts/" + youtube,
                    "/accounts/" + tiktok,
                    "/accounts/" + pinterest,
                    "/connect-sessions/" + session,
                    "/posts/" + post,
                    "/post-series/" + series,
                    "/webhooks/" + webhook,
                    "/deliveries?endpoint_id=" + webhook,
                    "/webhooks")) {
                state.put(
                        path,
                        as(testKey)
                                .get(path)
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .get("data"));
            }
            return state;
        }
    }

    /** A valid queue an intruder would put on the owner's profile: refused as not found, never for its body. */
    private static final String QUEUE_TAKEN_OVER =
            "{\"timezone\":\"UTC\",\"slots\":[{\"day\":\"sunday\",\"time\":\"03:00\"}]}";

    @BeforeAll
    static void createTheOwnersResources() throws Exception {
        String workspace = RunningSuite.newWorkspace("API1 owner");
        for (String mode : List.of("test", "live")) {
            SecuritySupport.retrying503(() -> RunningSuite.admin()
                            .body("{\"mode\":\"" + mode + "\",\"plan\":\"scale\",\"plan_source\":\"comp\"}")
                            .put("/admin/v1/workspaces/" + workspace + "/plan"))
                    .then()
                    .statusCode(200);
        }
        String key = RunningSuite.newKey(workspace, "test");
        String profile = as(key).contentType(ContentType.JSON)
                .body("{\"name\":\"Owner\",\"external_id\":\"owner-1\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        as(key).contentType(ContentType.JSON)
                .body("{\"timezone\":\"Europe/Berlin\",\"slots\":[{\"day\":\"monday\",\"time\":\"09:00\"}]}")
                .put("/profiles/" + profile + "/queue")
                .then()
                .statusCode(200);
        as(key).contentType(ContentType.JSON)
                .body("{\"name\":\"Owner two\"}")
                .post("/profiles")
                .then()
                .statusCode(201);
        String linkedin = account(key, "linkedin", profile);
        String youtube = account(key, "youtube", null);
        String tiktok = account(key, "tiktok", null);
        String pinterest = account(key, "pinterest", null);
        String board = as(key).get("/accounts/" + pinterest + "/boards")
                .then()
                .statusCode(200)
                .extract()
                .path("data[0].id");
        String session = connectSession(key, profile);
        String post = scheduledPost(key, linkedin);
        scheduledPost(key, linkedin);
        String series = recurringPost(key, linkedin);
        WebhooksIT.Receiver receiver = new WebhooksIT.Receiver(n -> 200);
        String webhook =
                WebhooksIT.register(key, receiver.url(), "post.published").id();
        String delivery = as(key).post("/webhooks/" + webhook + "/test")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
        // Settled before the snapshots, so only an intruder could change it.
        assertThat(WebhooksIT.awaitDeliveries(key, webhook, WebhooksIT.all(1, "succeeded"), 20_000))
                .hasSize(1);
        owner = new Owner(
                key,
                RunningSuite.newKey(workspace, "live"),
                profile,
                linkedin,
                youtube,
                tiktok,
                pinterest,
                board,
                session,
                post,
                series,
                webhook,
                delivery,
                receiver);
    }

    @AfterAll
    static void closeReceiver() {
        if (owner != null) {
            owner.receiver().close();
        }
    }

    private static String account(String key, String platform, String profile) {
        String body = "{\"platform\":\"" + platform + "\",\"username\":\"owner_" + platform + "\""
                + (profile == null ? "" : ",\"profile_id\":\"" + profile + "\"") + "}";
        return as(key).contentType(ContentType.JSON)
                .body(body)
                .post("/accounts")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    private static String connectSession(String key, String profile) {
        String body = "{\"profile_id\":\"" + profile + "\"}";
        Response created = as(key).contentType(ContentType.JSON).body(body).post("/connect-sessions");
        if (created.statusCode() == 503) {
            // The API's transient answer, retried as a client would (see ConnectOnboardingIT).
            created = as(key).contentType(ContentType.JSON).body(body).post("/connect-sessions");
        }
        return created.then().statusCode(201).extract().path("data.id");
    }

    private static String scheduledPost(String key, String account) {
        return as(key).contentType(ContentType.JSON)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"text\":\"Later\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\""
                        + Instant.now().plus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS) + "\"}")
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.id");
    }

    /** A weekly post scheduled later; its series' id. */
    private static String recurringPost(String key, String account) {
        return as(key).contentType(ContentType.JSON)
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .body("{\"text\":\"Weekly\",\"account_ids\":[\"" + account + "\"],\"scheduled_at\":\""
                        + Instant.now().plus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS)
                        + "\",\"repeat\":{\"every\":\"P7D\",\"count\":3}}")
                .post("/posts")
                .then()
                .statusCode(202)
                .extract()
                .path("data.series_id");
    }

    /**
     * Every id-taking route, called by {@code intruder} with the owner's real ids, answers 404 not_found with the
     * envelope, word for word what an unknown id of the same kind gets; then the owner finds everything unchanged.
     */
    private static void everyIdRouteIsNotFoundFor(String intruder) {
        Map<String, Object> before = owner.snapshot();
        SoftAssertions softly = new SoftAssertions();
        int checked = 0;
        for (Route route : CATALOG) {
            if (!route.takesIds()) {
                continue;
            }
            String path = SecuritySupport.fill(route.template(), variable -> owner.id(route, variable));
            Response foreign = SecuritySupport.call(intruder, route, path, Owner.body(route));
            assertError(softly, route + " with the owner's ids", foreign, 404, "not_found");

            // The same route with an id nobody has: the answer must not tell the two apart.
            String unknownId = SecuritySupport.unknownId(route.template());
            String ownersId = owner.id(route, "id");
            String unknownPath = SecuritySupport.fill(
                    route.template(), variable -> variable.equals("id") ? unknownId : owner.id(route, variable));
            Response unknown = SecuritySupport.call(intruder, route, unknownPath, Owner.body(route));
            softly.assertThat(foreign.jsonPath().getString("error.message").replace(ownersId, "<id>"))
                    .as(route + ": the message for a foreign id is the message for an unknown one")
                    .isEqualTo(unknown.jsonPath().getString("error.message").replace(unknownId, "<id>"));
            checked++;
        }
        softly.assertAll();
        assertThat(checked).as("id-taking routes in the catalog").isGreaterThanOrEqualTo(19);
        assertThat(owner.snapshot())
                .as("the owner's resources after the attempts")
                .isEqualTo(before);
    }

    @Test
    void api1_anotherWorkspacesIdsAreNotFoundOnEveryIdRoute() {
        everyIdRouteIsNotFoundFor(SecuritySupport.scopedTestKey("API1 intruder"));
    }

    @Test
    void api1_theSameWorkspacesOtherModeIdsAreNotFoundOnEveryIdRoute() {
        // The owner's own live key: the same workspace, every scope, but test-mode resources are not its own.
        everyIdRouteIsNotFoundFor(owner.liveKey());
    }

    @Test
    void api1_aTamperedForeignOrReboundCursorIsInvalidAndNeverShowsAnotherTenantsData() {
        String intruder = SecuritySupport.scopedTestKey("API1 cursor intruder");
        // Lists where the owner has more than one page at limit=1.
        for (String list : List.of("/accounts", "/profiles", "/posts", "/logs")) {
            long started = System.nanoTime();
            JsonPath first = as(owner.testKey())
                    .queryParam("limit", 1)
                    .get(list)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            System.out.printf(
                    "API1 cursor: first page of %s after %d ms%n", list, (System.nanoTime() - started) / 1_000_000);
            assertThat(first.getBoolean("meta.has_more"))
                    .as(list + " has a second page")
                    .isTrue();
            String cursor = first.getString("meta.next_cursor");
            // The genuine cursor works for its owner, so every refusal below is about the change alone.
            as(owner.testKey())
                    .queryParam("limit", 1)
                    .queryParam("cursor", cursor)
                    .get(list)
                    .then()
                    .statusCode(200);

            SoftAssertions softly = new SoftAssertions();
            int middle = cursor.length() / 2;
            char flipped = cursor.charAt(middle) == 'A' ? 'B' : 'A';
            Map<String, Response> tampered = new LinkedHashMap<>();
            tampered.put(
                    "an edited cursor",
                    as(owner.testKey())
                            .queryParam("limit", 1)
                            .queryParam("cursor", cursor.substring(0, middle) + flipped + cursor.substring(middle + 1))
                            .get(list));
            tampered.put(
                    "a truncated cursor",
                    as(owner.testKey())
                            .queryParam("limit", 1)
                            .queryParam("cursor", cursor.substring(0, cursor.length() - 6))
                            .get(list));
            tampered.put(
                    "a cursor with text appended",
                    as(owner.testKey())
                            .queryParam("limit", 1)
                            .queryParam("cursor", cursor + "AAAA")
                            .get(list));
            tampered.put(
                    "another workspace's cursor",
                    as(intruder)
                            .queryParam("limit", 1)
                            .queryParam("cursor", cursor)
                            .get(list));
            tampered.put(
                    "the other mode's cursor",
                    as(owner.liveKey())
                            .queryParam("limit", 1)
                            .queryParam("cursor", cursor)
                            .get(list));
            tampered.put(
                    "another list's cursor",
                    as(owner.testKey())
                            .queryParam("limit", 1)
                            .queryParam("cursor", cursor)
                            .get(list.equals("/accounts") ? "/profiles" : "/accounts"));
            tampered.put(
                    "not a cursor at all",
                    as(owner.testKey())
                            .queryParam("cursor", "eyJpZCI6InByZl8xIn0")
                            .get(list));
            if (list.equals("/accounts")) {
                tampered.put(
                        "a cursor made for other filters",
                        as(owner.testKey())
                                .queryParam("limit", 1)
                                .queryParam("platform", "linkedin")
                                .queryParam("cursor", cursor)
                                .get(list));
            }
            if (list.equals("/profiles")) {
                tampered.put(
                        "a cursor made for other filters",
                        as(owner.testKey())
                                .queryParam("limit", 1)
                                .queryParam("q", "Owner")
                                .queryParam("cursor", cursor)
                                .get(list));
            }
            tampered.forEach((what, response) -> {
                System.out.printf("API1 cursor: %s with %s took %d ms%n", list, what, response.time());
                assertError(softly, list + " with " + what, response, 400, "invalid_cursor");
                softly.assertThat(response.asString())
                        .as(list + " with " + what + " shows none of the owner's ids")
                        .doesNotContain(owner.profile(), owner.linkedin(), owner.post());
            });
            softly.assertAll();
        }
    }
}
