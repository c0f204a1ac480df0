package dev.herald.gateway.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import dev.herald.gateway.proxy.EchoUpstream;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class DashboardLogsResourceTest {
    private static final Pattern ROW = Pattern.compile("data-request-id=\"(req_[a-f0-9]{24})\"");

    /** An API key made with the admin API: {secret, id}. */
    private static String[] key(String workspace, String mode, String name) {
        JsonPath created = given().header("Authorization", DashboardVisitor.ADMIN)
                .contentType(ContentType.JSON)
                .body(Map.of("mode", mode, "name", name))
                .post("/admin/v1/workspaces/" + workspace + "/api-keys")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        return new String[] {created.getString("data.secret"), created.getString("data.id")};
    }

    /** The API request's id (its x-request-id). */
    private static String call(String secret, String path) {
        return given().header("Authorization", "Bearer " + secret)
                .get(path)
                .then()
                .extract()
                .header("x-request-id");
    }

    /** Logs are written in batches just after each answer: the page's request ids once {@code count} are shown. */
    private static List<String> rowsOnceVisible(DashboardVisitor visitor, String page, int count)
            throws InterruptedException {
        List<String> ids = new ArrayList<>();
        for (int attempt = 0; attempt < 50; attempt++) {
            ids = requestIds(visitor.get(page).then().statusCode(200).extract().asString());
            if (ids.size() >= count) {
                return ids;
            }
            Thread.sleep(100);
        }
        return ids;
    }

    private static List<String> requestIds(String html) {
        List<String> ids = new ArrayList<>();
        Matcher row = ROW.matcher(html);
        while (row.find()) {
            ids.add(row.group(1));
        }
        return ids;
    }

    @Test
    void theLogsAreListedNewestFirstAndFilteredByKeyStatusMethodAndPath() throws Exception {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("viewer");
        String[] backend = key(owner.workspaceId, "test", "Backend");
        String[] worker = key(owner.workspaceId, "test", "Worker");
        String first = call(backend[0], "/api/v1/profiles");
        String missing = call(backend[0], "/api/v1/profiles?status=404");
        String posts = call(worker[0], "/api/v1/posts");
        String logs = owner.base("test") + "/logs";

        assertThat(rowsOnceVisible(owner, logs, 3)).containsExactly(posts, missing, first);
        String page = owner.get(logs).asString();
        assertThat(page)
                .contains("<option value=\"" + backend[1] + "\">Backend …" + backend[0].substring(36))
                .contains("<option value=\"" + worker[1] + "\">Worker");

        assertThat(requestIds(owner.get(logs + "?key_id=" + backend[1]).asString()))
                .containsExactly(missing, first);
        owner.get(logs + "?key_id=" + backend[1])
                .then()
                .body(containsString("<option value=\"" + backend[1] + "\" selected>"));
        assertThat(requestIds(owner.get(logs + "?status=404").asString())).containsExactly(missing);
        assertThat(requestIds(owner.get(logs + "?key_id=" + worker[1] + "&method=GET&status=")
                        .asString()))
                .containsExactly(posts);
        assertThat(requestIds(owner.get(logs + "?path=/api/v1/prof&key_id=" + worker[1])
                        .asString()))
                .isEmpty();
        // The other mode's logs are another list.
        assertThat(requestIds(owner.get(owner.base("live") + "/logs").asString()))
                .isEmpty();
    }

    @Test
    void theApiFiltersByKeyAlikeAndRefusesAnEmptyKey() throws Exception {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String[] backend = key(owner.workspaceId, "test", "Backend");
        String[] worker = key(owner.workspaceId, "test", "Worker");
        String mine = call(backend[0], "/api/v1/profiles");
        String theirs = call(worker[0], "/api/v1/profiles");
        rowsOnceVisible(owner, owner.base("test") + "/logs", 2);

        List<String> ids = given().header("Authorization", "Bearer " + backend[0])
                .queryParam("key_id", worker[1])
                .get("/api/v1/logs")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("data.id");
        assertThat(ids).containsExactly(theirs).doesNotContain(mine);
        given().header("Authorization", "Bearer " + backend[0])
                .queryParam("key_id", "")
                .get("/api/v1/logs")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"))
                .body("error.details.parameter", equalTo("key_id"));
    }

    @Test
    void badFilterInputComesBackBesideItsFieldAsHtml() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String logs = owner.base("test") + "/logs";
        owner.get(logs + "?status=abc&method=GET")
                .then()
                .statusCode(400)
                .contentType(containsString("text/html"))
                .body(containsString("id=\"status-error\">status must be an HTTP status code from 100 to 599."))
                .body(containsString("name=\"status\" value=\"abc\""))
                .body(containsString("aria-invalid=\"true\" aria-describedby=\"status-error\""))
                .body(not(containsString("\"error\":")));
        owner.get(logs + "?method=TRACE")
                .then()
                .statusCode(400)
                .body(containsString("id=\"method-error\">method must be one of"));
        owner.get(logs + "?path=api")
                .then()
                .statusCode(400)
                .body(containsString("id=\"path-error\">path must start with /"));
        owner.get(logs + "?key_id=" + "k".repeat(301))
                .then()
                .statusCode(400)
                .body(containsString("id=\"key_id-error\">key_id must be at most 300 characters."));
        owner.get(logs + "?cursor=not-a-cursor")
                .then()
                .statusCode(400)
                .contentType(containsString("text/html"))
                .body(containsString("id=\"cursor-error\""));
    }

    @Test
    void aRequestIsShownByItsIdAndOnlyInItsOwnWorkspace() throws Exception {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String[] backend = key(owner.workspaceId, "test", "Backend");
        String id = call(backend[0], "/api/v1/posts?status=422");
        rowsOnceVisible(owner, owner.base("test") + "/logs", 1);

        owner.get(owner.base("test") + "/logs/" + id)
                .then()
                .statusCode(200)
                .body(containsString("<code id=\"request-id\">" + id + "</code>"))
                .body(containsString("data-copy=\"request-id\""))
                .body(containsString("id=\"detail-method\">GET<"))
                .body(containsString("id=\"detail-path\">/api/v1/posts<"))
                .body(containsString(">422</span>"))
                .body(containsString("Backend <code>sk_test_…" + backend[0].substring(36) + "</code>"))
                .body(containsString("id=\"detail-mode\">test<"));

        DashboardVisitor other = DashboardVisitor.signedInToNewWorkspace("owner");
        other.get(other.base("test") + "/logs/" + id)
                .then()
                .statusCode(404)
                .contentType(containsString("text/html"))
                .body(not(containsString(id)));
        owner.get(owner.base("live") + "/logs/" + id).then().statusCode(404);
        owner.get(owner.base("test") + "/logs/req_000000000000000000000000")
                .then()
                .statusCode(404);
        owner.get(owner.base("test") + "/logs/not-an-id").then().statusCode(404);
    }
}
