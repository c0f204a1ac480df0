package dev.herald.gateway.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import dev.herald.gateway.service.PostCsvReader;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(value = CannedApiUpstream.class, restrictToAnnotatedClass = true)
class DashboardPostImportResourceTest {
    private static final Pattern UPLOAD = Pattern.compile("name=\"upload\" value=\"([^\"]+)\"");
    private static final Pattern ROWS = Pattern.compile("name=\"rows\" value=\"([^\"]*)\"");
    private static final Pattern CREATED = Pattern.compile("data-post-id=\"(pst_[a-z0-9]+)\"");

    /** Row 1 and 4 are fine; row 2 names an account that does not exist, row 3 a media URL that is not https. */
    private static final String CSV = "text,account_ids,scheduled_at,media_urls\r\n"
            + "\"<b>Bold</b> & more, with a comma\",acc_aaaaaaaaaaaaaaaaaaaaaaa1,2030-01-01T09:00:00Z,\r\n"
            + "To nobody,acc_unknown0000000000000001 acc_unknown0000000000000002,,\r\n"
            + "Bad media,acc_aaaaaaaaaaaaaaaaaaaaaaa1,,http://cdn.example.org/a.jpg\r\n"
            + "Second good one,acc_aaaaaaaaaaaaaaaaaaaaaaa1; acc_bbbbbbbbbbbbbbbbbbbbbbb2,next_slot,https://cdn.example.org/a.mp4\r\n";

    @Test
    void theEmptyPageShowsTheColumnsAndASampleFile() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String page = owner.base("test") + "/posts/import";
        owner.get(owner.base("test") + "/posts")
                .then()
                .statusCode(200)
                .body(containsString("href=\"" + page + "\" id=\"import-posts\""));
        owner.get(page)
                .then()
                .statusCode(200)
                .body(containsString(
                        "<code id=\"csv-header\">text,account_ids,scheduled_at,media_urls,media_types,first_comment"))
                .body(containsString("enctype=\"multipart/form-data\""))
                .body(not(containsString("id=\"import-preview\"")));
        owner.get(page + "/sample.csv")
                .then()
                .statusCode(200)
                .contentType(containsString("text/csv"))
                .header("Content-Disposition", containsString("attachment"))
                .body(containsString("text,account_ids,scheduled_at,media_urls,first_comment\n"));
    }

    @Test
    void aRoleThatCannotCreatePostsIsRefusedAndSeesNoLink() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        int before = CannedApiUpstream.requests.size();
        for (String role : new String[] {"developer", "viewer"}) {
            DashboardVisitor member = DashboardVisitor.signedIn(owner.workspaceId, role);
            String page = member.base("test") + "/posts/import";
            member.get(member.base("test") + "/posts")
                    .then()
                    .statusCode(200)
                    .body(not(containsString("id=\"import-posts\"")));
            member.get(page).then().statusCode(403).body(containsString("cannot create posts"));
            member.upload(member.base("test") + "/posts", page, "posts.csv", bytes(CSV), "text/csv")
                    .then()
                    .statusCode(403)
                    .contentType(containsString("text/html"))
                    .body(containsString("cannot create posts"));
            member.post(member.base("test") + "/posts", page + "/schedule", Map.of("upload", "eA", "rows", "1"))
                    .then()
                    .statusCode(403);
        }
        assertThat(CannedApiUpstream.requests.stream().skip(before))
                .noneMatch(request -> request.startsWith("POST /posts"));
    }

    @Test
    void formsWithoutTheSessionsCsrfTokenAreRefused() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String page = owner.base("test") + "/posts/import";
        int before = CannedApiUpstream.requests.size();
        given().redirects()
                .follow(false)
                .cookie(DashboardResponses.COOKIE, owner.session)
                .multiPart("file", "posts.csv", bytes(CSV), "text/csv")
                .post(page)
                .then()
                .statusCode(403)
                .body(containsString("This form has expired"));
        given().redirects()
                .follow(false)
                .cookie(DashboardResponses.COOKIE, owner.session)
                .contentType(ContentType.URLENC)
                .formParam("csrf", "not-the-token")
                .formParam("upload", "eA")
                .formParam("rows", "1")
                .post(page + "/schedule")
                .then()
                .statusCode(403)
                .body(containsString("This form has expired"));
        assertThat(CannedApiUpstream.requests.stream().skip(before)).isEmpty();
    }

    @Test
    void theDryRunShowsEachRowsProblemsFromTheFileAndTheApi() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String page = owner.base("test") + "/posts/import";
        int validations = validations();
        String html = owner.upload(page, page, "posts.csv", bytes(CSV), "text/csv")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(html)
                .contains("<tr data-row=\"1\" class=\"row-ok\">")
                // The customer's text is escaped like everything the pages show.
                .contains("&lt;b&gt;Bold&lt;/b&gt; &amp; more, with a comma")
                .doesNotContain("<b>Bold</b>")
                .contains("<tr data-row=\"2\" class=\"row-bad\">")
                .contains("<code>account_ids[0]</code>: acc_unknown0000000000000001: No such account")
                .contains("<code>account_ids[1]</code>: No account acc_unknown0000000000000002 exists")
                .contains("<tr data-row=\"3\" class=\"row-bad\">")
                .contains("<code>media_urls</code>: &quot;http://cdn.example.org/a.jpg&quot; is not an https URL")
                .contains("<tr data-row=\"4\" class=\"row-ok\">")
                .contains("next free slot")
                .contains("2 ready")
                .contains("2 with problems")
                .contains("id=\"schedule-submit\">Schedule 2 posts</button>")
                .contains("name=\"rows\" value=\"1 4\"");
        // Rows 1, 2 and 4 went to the dry run; row 3's cells were wrong already.
        assertThat(validations() - validations).isEqualTo(3);
        assertThat(CannedApiUpstream.bodies)
                .anySatisfy(body -> assertThat(body.toString())
                        .isEqualTo("{\"text\":\"Second good one\",\"account_ids\":[\"acc_aaaaaaaaaaaaaaaaaaaaaaa1\","
                                + "\"acc_bbbbbbbbbbbbbbbbbbbbbbb2\"],\"scheduled_at\":\"next_slot\","
                                + "\"media\":{\"url\":\"https://cdn.example.org/a.mp4\",\"type\":\"video\"}}"));
    }

    @Test
    void aFileThatCannotBeImportedComesBackBesideTheFileField() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String page = owner.base("test") + "/posts/import";
        assertFileRefused(owner, "", new byte[0], "application/octet-stream", "Choose a CSV file to upload.");
        assertFileRefused(
                owner, "posts.xlsx", new byte[] {'P', 'K', 3, 4}, "application/vnd.ms-excel.sheet", "not a CSV file");
        assertFileRefused(owner, "posts.csv", bytes("text\nHello\n"), "text/csv", "no &quot;account_ids&quot; column");
        assertFileRefused(owner, "posts.csv", new byte[PostCsvReader.MAX_BYTES + 1], "text/csv", "larger than 1 MiB");
        StringBuilder many = new StringBuilder("text,account_ids\n");
        for (int i = 0; i <= 100; i++) {
            many.append("Post ").append(i).append(",acc_aaaaaaaaaaaaaaaaaaaaaaa1\n");
        }
        assertFileRefused(owner, "posts.csv", bytes(many.toString()), "text/csv", "more than 100 rows");
        owner.get(page).then().statusCode(200);
    }

    @Test
    void schedulingCreatesTheValidRowsOnceHoweverOftenItIsSubmitted() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String page = owner.base("test") + "/posts/import";
        String preview = owner.upload(page, page, "posts.csv", bytes(CSV), "text/csv")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Map<String, String> form = Map.of("upload", find(UPLOAD, preview), "rows", find(ROWS, preview));
        int createdBefore = CannedApiUpstream.createdByKey.size();

        String first = owner.post(page, page + "/schedule", form)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        List<String> posts = all(CREATED, first);
        assertThat(posts).hasSize(2);
        assertThat(first)
                .contains("2 posts scheduled")
                .contains("<tr data-row=\"1\" data-post-id=\"" + posts.get(0) + "\">")
                .contains("<tr data-row=\"4\" data-post-id=\"" + posts.get(1) + "\">")
                .contains("href=\"" + owner.base("test") + "/posts/" + posts.get(0) + "\"")
                .doesNotContain("data-row=\"2\"")
                .doesNotContain("data-row=\"3\"");
        assertThat(CannedApiUpstream.createdByKey.size() - createdBefore).isEqualTo(2);
        assertThat(CannedApiUpstream.createdByKey.keySet())
                .anyMatch(key -> key.matches("dashboard-csv-[0-9a-f]{64}-1"))
                .anyMatch(key -> key.matches("dashboard-csv-[0-9a-f]{64}-4"));

        // The same table again (a double click, a reload): the same two posts, nothing new.
        String again = owner.post(page, page + "/schedule", form)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(all(CREATED, again)).isEqualTo(posts);
        assertThat(again).contains("already scheduled by an earlier submission");
        assertThat(CannedApiUpstream.createdByKey.size() - createdBefore).isEqualTo(2);
    }

    @Test
    void theSubmissionReadsTheFileAgainAndTrustsNoRowTheFileGetsWrong() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String page = owner.base("test") + "/posts/import";
        String upload = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(CSV));
        int createdBefore = CannedApiUpstream.createdByKey.size();
        // Row 3 (a bad URL) asked for by an altered page is still not sent.
        String html = owner.post(page, page + "/schedule", Map.of("upload", upload, "rows", "3"))
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(html).contains("No row was scheduled.");
        assertThat(CannedApiUpstream.createdByKey.size()).isEqualTo(createdBefore);
        owner.post(page, page + "/schedule", Map.of("upload", "not base64!", "rows", "1"))
                .then()
                .statusCode(422)
                .body(containsString("id=\"import-file-error\">Upload the file again."));
    }

    @Test
    void aFileOfNearlyOneMebibyteTravelsFromTheDryRunToTheSubmission() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String page = owner.base("test") + "/posts/import";
        StringBuilder csv = new StringBuilder("text,account_ids\n");
        String text = "x".repeat(10_300);
        for (int i = 1; i <= 100; i++) {
            csv.append(i).append(' ').append(text).append(",acc_aaaaaaaaaaaaaaaaaaaaaaa1\n");
        }
        assertThat(csv.length()).isBetween(1_000_000, PostCsvReader.MAX_BYTES);
        String preview = owner.upload(page, page, "posts.csv", bytes(csv.toString()), "text/csv")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(preview).contains("Schedule 100 posts");
        int createdBefore = CannedApiUpstream.createdByKey.size();
        owner.post(page, page + "/schedule", Map.of("upload", find(UPLOAD, preview), "rows", find(ROWS, preview)))
                .then()
                .statusCode(200)
                .body(containsString("100 posts scheduled"));
        assertThat(CannedApiUpstream.createdByKey.size() - createdBefore).isEqualTo(100);
    }

    private static void assertFileRefused(
            DashboardVisitor owner, String name, byte[] content, String type, String message) {
        String page = owner.base("test") + "/posts/import";
        Response answer = owner.upload(page, page, name, content, type);
        answer.then()
                .statusCode(422)
                .contentType(containsString("text/html"))
                .body(containsString("aria-describedby=\"import-file-error\""))
                .body(containsString("<p class=\"field-error\" id=\"import-file-error\">"))
                .body(containsString(message));
    }

    private static int validations() {
        return (int) CannedApiUpstream.requests.stream()
                .filter("POST /posts/validate"::equals)
                .count();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String find(Pattern pattern, String html) {
        Matcher matcher = pattern.matcher(html);
        assertThat(matcher.find()).as(pattern + " in\n" + html).isTrue();
        return matcher.group(1);
    }

    private static List<String> all(Pattern pattern, String html) {
        Set<String> found = new LinkedHashSet<>();
        Matcher matcher = pattern.matcher(html);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return List.copyOf(found);
    }
}
