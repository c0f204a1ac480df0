package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** What Herald's accounts-service does against a fake's authorization page: follow it and read the redirect. */
final class OAuthDance {
    static final String REDIRECT = "http://127.0.0.1:18080/connect/callback/";

    private OAuthDance() {}

    /** Opens the authorization page and returns the query of the redirect back to Herald. */
    static Map<String, String> authorize(String pagePath, Map<String, String> parameters) {
        Response page =
                given().redirects().follow(false).queryParams(parameters).get(pagePath);
        assertThat(page.statusCode())
                .as("authorization page answer: %s", page.asString())
                .isEqualTo(302);
        URI location = URI.create(page.header("Location"));
        assertThat(location.toString()).startsWith(parameters.get("redirect_uri"));
        return query(location.getRawQuery());
    }

    static Map<String, String> query(String rawQuery) {
        Map<String, String> query = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&")) {
            int equals = pair.indexOf('=');
            query.put(pair.substring(0, equals), URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
        return query;
    }

    static void resetFakes() {
        given().post("/_fakes/reset").then().statusCode(204);
    }
}
