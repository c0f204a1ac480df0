package dev.herald.gateway.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import dev.herald.gateway.proxy.EchoUpstream;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class DashboardUsageResourceTest {

    private static String key(String workspace, String mode) {
        return given().header("Authorization", DashboardVisitor.ADMIN)
                .contentType(ContentType.JSON)
                .body(Map.of("mode", mode))
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .path("data.secret");
    }

    /** The usage page once the logs show at least {@code requests} today (they are written just after answers). */
    private static String pageOnceLogged(DashboardVisitor visitor, String mode, int requests)
            throws InterruptedException {
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        String page = "";
        for (int attempt = 0; attempt < 50; attempt++) {
            page = visitor.get(visitor.base(mode) + "/usage")
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString();
            if (page.contains("<tr><td>" + today + "</td><td class=\"num\">" + requests + "</td></tr>")) {
                return page;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the chart never showed " + requests + " requests today:\n" + page);
    }

    @Test
    void theMetersThePlanAndTheRequestsPerDayShowTheWorkspacesNumbers() throws Exception {
        DashboardVisitor viewer = DashboardVisitor.signedInToNewWorkspace("viewer");
        String secret = key(viewer.workspaceId, "live");
        for (int i = 0; i < 3; i++) {
            given().header("Authorization", "Bearer " + secret)
                    .get("/api/v1/posts") // metered (GET /profiles is not)
                    .then()
                    .statusCode(200);
        }

        String page = pageOnceLogged(viewer, "live", 3);
        assertThat(page)
                .contains("id=\"plan-name\">free<")
                .contains("id=\"plan-source\">comp<")
                .contains("id=\"rate-limit\">30<")
                // 7 of 20 publications used (35 %) and 3 reserved (15 %) after them.
                .contains("<rect class=\"used\" width=\"35\" height=\"8\"/>")
                .contains("<rect class=\"reserved\" x=\"35\" width=\"15\" height=\"8\"/>")
                .contains("7</span> used, 3 reserved, limit 20, <span class=\"remaining\">10</span> remaining")
                // The gateway's own count of metered API requests: the three calls.
                .containsPattern("id=\"meter-api_requests\">[\\s\\S]*?<span class=\"used-count\">3</span> used, 0"
                        + " reserved, limit 2,000, <span class=\"remaining\">1,997</span>")
                .contains("1 GB")
                // Today's bar is the busiest: full height.
                .containsPattern("<rect x=\"\\d+\" y=\"0\" width=\"8\" height=\"100\"><title>"
                        + LocalDate.now(ZoneOffset.UTC) + ": 3</title>")
                .contains("Logged API requests made with this mode's keys")
                .doesNotContain("style=");
    }

    @Test
    void testModeSaysWhichMetersItDoesNotLimit() throws Exception {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        owner.get(owner.base("test") + "/usage")
                .then()
                .statusCode(200)
                .body(containsString("id=\"meter-media_bytes\""))
                .body(containsString("Not metered in test mode"))
                .body(containsString("limit 10,000"))
                .body(containsString("Test mode has its own allowances"))
                .body(containsString("not limited in test mode"));
    }

    @Test
    void theNextPlansAllowancesStandBesideTheCurrentOnesAndScaleIsTheLargest() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        owner.get(owner.base("live") + "/usage")
                .then()
                .statusCode(200)
                .body(containsString("<th scope=\"col\" class=\"num\">free (yours)</th>"))
                .body(containsString("<th scope=\"col\" class=\"num\">starter</th>"))
                .body(
                        containsString(
                                "<tr><th scope=\"row\">API requests a month</th><td class=\"num\">2,000</td><td class=\"num\">25,000</td></tr>"))
                .body(not(containsString("id=\"largest-plan\"")));

        EchoUpstream.USAGE_PLANS.put(owner.workspaceId + ":live", "scale");
        owner.get(owner.base("live") + "/usage")
                .then()
                .statusCode(200)
                .body(containsString("scale (yours)"))
                .body(containsString("id=\"largest-plan\">scale is the largest plan."));
    }

    @Test
    void theDashboardLandsOnTheUsagePage() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        owner.get("/dashboard")
                .then()
                .statusCode(303)
                .header("Location", containsString("/dashboard/w/" + owner.workspaceId + "/test/usage"));
    }
}
