package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The usage and request-log pages against the real services: API calls made with a workspace's keys show in its
 * logs (filtered by key and status, each request by its id) and move the usage page's API-requests meter by as many.
 */
class DashboardUsageLogsIT {
    private static final Pattern ROW = Pattern.compile("data-request-id=\"(req_[a-f0-9]{24})\"");
    private static final Pattern API_REQUESTS_USED =
            Pattern.compile("id=\"meter-api_requests\">[\\s\\S]*?<span class=\"used-count\">([0-9,]+)</span> used");

    @Test
    void apiCallsShowInTheLogsAndMoveTheApiRequestsMeter() throws Exception {
        String workspace = RunningSuite.newWorkspace("Dashboard usage and logs IT");
        JsonPath backend = key(workspace, "Backend");
        JsonPath worker = key(workspace, "Worker");
        DashboardMember viewer = DashboardMember.signIn(workspace, "viewer");
        String base = DashboardSession.base(workspace, "test");

        long before = apiRequestsUsed(viewer.page(base + "/usage"));

        List<String> backendCalls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            backendCalls.add(RunningSuite.as(backend.getString("data.secret"))
                    .get("/posts") // metered, as is GET /accounts/{id}
                    .then()
                    .statusCode(200)
                    .extract()
                    .header("x-request-id"));
        }
        String missing = RunningSuite.as(worker.getString("data.secret"))
                .get("/accounts/acc_000000000000000000000000")
                .then()
                .statusCode(404)
                .extract()
                .header("x-request-id");

        // Logs are written just after each answer, in batches.
        List<String> all = eventually(() -> requestIds(viewer.page(base + "/logs")), ids -> ids.size() >= 4);
        assertThat(all).containsExactly(missing, backendCalls.get(2), backendCalls.get(1), backendCalls.get(0));
        assertThat(requestIds(viewer.page(base + "/logs?key_id=" + backend.getString("data.id"))))
                .containsExactly(backendCalls.get(2), backendCalls.get(1), backendCalls.get(0));
        assertThat(requestIds(viewer.page(base + "/logs?status=404"))).containsExactly(missing);
        assertThat(requestIds(viewer.page(base + "/logs?status=200&key_id=" + worker.getString("data.id"))))
                .isEmpty();
        assertThat(viewer.get(base + "/logs?status=600").then().extract().statusCode())
                .isEqualTo(400);

        String detail = viewer.page(base + "/logs/" + missing);
        assertThat(detail)
                .contains("<code id=\"request-id\">" + missing + "</code>")
                .contains("id=\"detail-path\">/api/v1/accounts/acc_000000000000000000000000<")
                .contains("Worker <code>sk_test_…");
        // Another workspace's member finds no such request in theirs, and cannot open this workspace's pages.
        String strangers = RunningSuite.newWorkspace("Stranger");
        DashboardMember stranger = DashboardMember.signIn(strangers, "owner");
        stranger.get(DashboardSession.base(strangers, "test") + "/logs/" + missing)
                .then()
                .statusCode(404);
        stranger.get(base + "/logs/" + missing).then().statusCode(404);

        long after = eventually(() -> apiRequestsUsed(viewer.page(base + "/usage")), used -> used >= before + 4);
        assertThat(after).isEqualTo(before + 4);
    }

    private static JsonPath key(String workspace, String name) {
        return RunningSuite.admin()
                .body(Map.of("mode", "test", "name", name))
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
    }

    private static long apiRequestsUsed(String usagePage) {
        return Long.parseLong(DashboardMember.find(API_REQUESTS_USED, usagePage).replace(",", ""));
    }

    private static List<String> requestIds(String html) {
        List<String> ids = new ArrayList<>();
        Matcher row = ROW.matcher(html);
        while (row.find()) {
            ids.add(row.group(1));
        }
        return ids;
    }

    private static <T> T eventually(Supplier<T> read, Predicate<T> done) throws InterruptedException {
        T value = read.get();
        for (int attempt = 0; attempt < 100 && !done.test(value); attempt++) {
            Thread.sleep(100);
            value = read.get();
        }
        return value;
    }
}
