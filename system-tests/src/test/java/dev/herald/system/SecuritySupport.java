package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;

/** What the security system tests share: the gateway's route catalog, envelope checks and requests by route. */
final class SecuritySupport {
    /** The scope names as the catalog's constants spell them ({@code PROFILES_READ} is {@code profiles:read}). */
    static final List<String> SCOPES = List.of(
            "profiles:read",
            "profiles:write",
            "accounts:read",
            "accounts:write",
            "posts:read",
            "posts:write",
            "comments:read",
            "comments:write",
            "webhooks:read",
            "webhooks:write",
            "logs:read");

    private static final Pattern ROUTE =
            Pattern.compile("ApiRoute\\.(?:exempt|metered)\\(\"([A-Z]+)\",\\s*\"([^\"]+)\",\\s*([A-Z_]+|null),");

    private SecuritySupport() {}

    /** One public operation: method, path template relative to {@code /api/v1}, and its scope (null: none needed). */
    record Route(String method, String template, String scope) {
        boolean takesIds() {
            return template.contains("{");
        }

        boolean hasBody() {
            return method.equals("POST") || method.equals("PATCH") || method.equals("PUT");
        }

        @Override
        public String toString() {
            return method + " " + template;
        }
    }

    /**
     * Every route the gateway serves, read from its catalog ({@code RouteCatalog.java}), so that a route added there
     * is covered here without anyone remembering to: the system tests stay HTTP-only, the table stays single.
     */
    static List<Route> catalog() {
        Path source = Path.of(System.getProperty("herald.root", ".."))
                .toAbsolutePath()
                .normalize()
                .resolve("api-gateway/src/main/java/dev/herald/gateway/routing/RouteCatalog.java");
        String text;
        try {
            text = Files.readString(source);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the gateway's route catalog at " + source, e);
        }
        List<Route> routes = new ArrayList<>();
        Matcher matcher = ROUTE.matcher(text);
        while (matcher.find()) {
            String constant = matcher.group(3);
            String scope =
                    constant.equals("null") ? null : constant.toLowerCase().replaceFirst("_", ":");
            routes.add(new Route(matcher.group(1), matcher.group(2), scope));
        }
        assertThat(routes).as("routes read from " + source).hasSizeGreaterThan(30);
        assertThat(routes.stream().map(Route::scope).filter(s -> s != null).distinct())
                .as("the catalog uses exactly the known scopes")
                .containsExactlyInAnyOrderElementsOf(SCOPES);
        return routes;
    }

    /** A well-formed id of the kind the route's first path segment names, which no workspace has. */
    static String unknownId(String template) {
        String resource = template.split("/")[1];
        String prefix = switch (resource) {
            case "profiles" -> "prf_";
            case "accounts" -> "acc_";
            case "connect-sessions" -> "cs_";
            case "posts" -> "pst_";
            case "post-series" -> "ser_";
            case "webhooks" -> "whe_";
            case "deliveries" -> "dlv_";
            default ->
                throw new AssertionError("no id kind known for " + template + ": teach SecuritySupport.unknownId");
        };
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    /** The route's path with its ids filled in by {@code ids} (called with the template's variable names). */
    static String fill(String template, java.util.function.Function<String, String> ids) {
        Matcher variables = Pattern.compile("\\{([a-z_]+)}").matcher(template);
        StringBuilder path = new StringBuilder();
        while (variables.find()) {
            variables.appendReplacement(path, Matcher.quoteReplacement(ids.apply(variables.group(1))));
        }
        variables.appendTail(path);
        return path.toString();
    }

    /** Calls the route with {@code key}; a route with a body gets {@code body} as JSON. */
    static Response call(String key, Route route, String path, String body) {
        String idempotencyKey = UUID.randomUUID().toString();
        return retrying503(() -> {
            RequestSpecification request = as(key);
            if (route.hasBody()) {
                request = request.contentType(ContentType.JSON).body(body);
            }
            if (route.template().equals("/posts") && route.method().equals("POST")) {
                request = request.header("Idempotency-Key", idempotencyKey);
            }
            return request.request(route.method(), path);
        });
    }

    /**
     * Sends a request again, as a client would, while it answers {@code 503 service_unavailable} (at most three
     * times, a second apart): on a loaded CI machine a dependency can miss its timeout, and no answer these tests
     * expect is a 503, so retrying never hides what they check.
     */
    static Response retrying503(java.util.function.Supplier<Response> send) {
        Response response = send.get();
        for (int attempt = 1; attempt < 3 && response.statusCode() == 503; attempt++) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return response;
            }
            response = send.get();
        }
        return response;
    }

    /**
     * The spec's error envelope ({@code error.code}, {@code error.message}, {@code error.details} an object,
     * {@code request_id} equal to the {@code x-request-id} header) with this status and code, and the rate-limit
     * headers every response carries.
     */
    static void assertError(SoftAssertions softly, String what, Response response, int status, String code) {
        softly.assertThat(response.statusCode())
                .as(what + ": status (body " + response.asString() + ")")
                .isEqualTo(status);
        String body = response.asString();
        JsonPath json;
        try {
            json = JsonPath.from(body);
            softly.assertThat(json.getString("error.code"))
                    .as(what + ": error.code")
                    .isEqualTo(code);
            softly.assertThat(json.getString("error.message"))
                    .as(what + ": error.message")
                    .isNotBlank();
            softly.assertThat(json.<Object>get("error.details"))
                    .as(what + ": error.details")
                    .isInstanceOf(Map.class);
            softly.assertThat(json.getString("request_id"))
                    .as(what + ": request_id")
                    .isNotBlank()
                    .isEqualTo(response.header("x-request-id"));
            softly.assertThat(json.<Object>get("data"))
                    .as(what + ": no data beside an error")
                    .isNull();
        } catch (RuntimeException e) {
            softly.fail(what + ": the body is not the error envelope: " + body);
        }
        softly.assertThat(response.header("X-RateLimit-Limit"))
                .as(what + ": X-RateLimit-Limit")
                .isNotNull();
        softly.assertThat(response.header("X-RateLimit-Remaining"))
                .as(what + ": X-RateLimit-Remaining")
                .isNotNull();
        softly.assertThat(response.header("X-RateLimit-Reset"))
                .as(what + ": X-RateLimit-Reset")
                .isNotNull();
    }

    static void assertError(Response response, int status, String code) {
        SoftAssertions softly = new SoftAssertions();
        assertError(softly, response.toString(), response, status, code);
        softly.assertAll();
    }

    /** A test key of a fresh workspace on the scale plan (300 requests a minute) with exactly these scopes. */
    static String scopedTestKey(String name, String... scopes) {
        String workspace = RunningSuite.newWorkspace(name);
        // The plan change asks usage-service synchronously: retried like any client would on a 503.
        retrying503(() -> RunningSuite.admin()
                        .body("{\"mode\":\"test\",\"plan\":\"scale\",\"plan_source\":\"comp\"}")
                        .put("/admin/v1/workspaces/" + workspace + "/plan"))
                .then()
                .statusCode(200);
        return RunningSuite.newKey(workspace, "test", scopes);
    }
}
