package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/**
 * OWASP API6, unrestricted access to sensitive business flows: a script that mints connect sessions (each a link to
 * Herald's hosted pages and the platforms' consent screens) or API keys is stopped per workspace and mode at the
 * hourly cap (100 sessions, 20 keys by default) with {@code 429 rate_limit_exceeded} and {@code Retry-After}, in the
 * spec's envelope; another workspace, a normal user, is unaffected meanwhile. The per-minute rate limit per key and
 * the monthly allowance are UsageAndLimitsIT's.
 */
class Api6BusinessFlowsIT {
    private static final int SESSIONS_PER_HOUR = 100;
    private static final int KEYS_PER_HOUR = 20;

    @Test
    void connectSessionsAreCappedPerWorkspaceAndHour() {
        LiveWorkspace script = LiveWorkspace.create("API6 session script");
        LiveWorkspace normal = LiveWorkspace.create("API6 normal user");

        for (int i = 0; i < SESSIONS_PER_HOUR; i++) {
            assertThat(createSession(script).statusCode())
                    .as("session %d", i + 1)
                    .isEqualTo(201);
        }
        Response refused = createSession(script);

        assertLimited(refused, SESSIONS_PER_HOUR, "connect sessions");
        assertThat(createSession(normal).statusCode()).as("another workspace").isEqualTo(201);
        // The script's other requests go on: only the flow is capped.
        as(script.key()).get("/connect-sessions/" + "cs_unknown").then().statusCode(404);
    }

    @Test
    void apiKeysAreCappedPerWorkspaceModeAndHour() {
        String script = RunningSuite.newWorkspace("API6 key script");
        String normal = RunningSuite.newWorkspace("API6 key normal user");

        for (int i = 0; i < KEYS_PER_HOUR; i++) {
            assertThat(createKey(script, "live").statusCode())
                    .as("key %d", i + 1)
                    .isEqualTo(201);
        }
        Response refused = createKey(script, "live");

        assertLimited(refused, KEYS_PER_HOUR, "API keys");
        assertThat(createKey(script, "test").statusCode()).as("the other mode").isEqualTo(201);
        assertThat(createKey(normal, "live").statusCode())
                .as("another workspace")
                .isEqualTo(201);
    }

    private static void assertLimited(Response refused, int limit, String what) {
        assertThat(refused.statusCode()).as(refused.asString()).isEqualTo(429);
        assertThat(refused.jsonPath().getString("error.code")).isEqualTo("rate_limit_exceeded");
        assertThat(refused.jsonPath().getString("error.message"))
                .startsWith("This workspace created " + limit + " " + what + " in the last hour");
        assertThat(refused.jsonPath().getInt("error.details.limit")).isEqualTo(limit);
        assertThat(refused.jsonPath().getInt("error.details.window_seconds")).isEqualTo(3600);
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertThat(retryAfter).isBetween(1L, 3600L);
        assertThat(refused.jsonPath().getLong("error.details.retry_after_seconds"))
                .isEqualTo(retryAfter);
        assertThat(refused.jsonPath().getString("request_id")).isNotBlank();
    }

    private static Response createSession(LiveWorkspace live) {
        Response created = as(live.key())
                .contentType(ContentType.JSON)
                .body("{\"profile_id\":\"" + live.profile() + "\"}")
                .post("/connect-sessions");
        // accounts-service's first read of its profile.events backlog answers 503 once (HostedConnect).
        return created.statusCode() == 503
                ? as(live.key())
                        .contentType(ContentType.JSON)
                        .body("{\"profile_id\":\"" + live.profile() + "\"}")
                        .post("/connect-sessions")
                : created;
    }

    private static Response createKey(String workspace, String mode) {
        return RunningSuite.admin()
                .body("{\"mode\":\"" + mode + "\"}")
                .post("/admin/v1/workspaces/" + workspace + "/api-keys");
    }
}
