package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class LinkedInFakeTest {
    static final String CLIENT = "herald-fake-linkedin-client";
    static final String SECRET = "herald-fake-linkedin-secret";
    static final String REDIRECT = OAuthDance.REDIRECT + "linkedin";

    @BeforeEach
    void reset() {
        OAuthDance.resetFakes();
    }

    /** Authorizes with these scopes and exchanges the code; the token answer. */
    static JsonPath connect(String scopes) {
        Map<String, String> back = OAuthDance.authorize(
                "/linkedin/oauth/v2/authorization",
                Map.of(
                        "response_type",
                        "code",
                        "client_id",
                        CLIENT,
                        "redirect_uri",
                        REDIRECT,
                        "scope",
                        scopes,
                        "state",
                        "st-123"));
        assertThat(back).containsEntry("state", "st-123").containsKey("code");
        return given().formParams(Map.of(
                        "grant_type",
                        "authorization_code",
                        "code",
                        back.get("code"),
                        "client_id",
                        CLIENT,
                        "client_secret",
                        SECRET,
                        "redirect_uri",
                        REDIRECT))
                .post("/linkedin/oauth/v2/accessToken")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    static Response createPost(String token, String author, String commentary) {
        return given().header("Authorization", "Bearer " + token)
                .header("LinkedIn-Version", "202601")
                .header("X-Restli-Protocol-Version", "2.0.0")
                .contentType(ContentType.JSON)
                .body(
                        "{\"author\":\"" + author + "\",\"commentary\":\"" + commentary
                                + "\",\"visibility\":\"PUBLIC\","
                                + "\"distribution\":{\"feedDistribution\":\"MAIN_FEED\",\"targetEntities\":[],"
                                + "\"thirdPartyDistributionChannels\":[]},\"lifecycleState\":\"PUBLISHED\",\"isReshareDisabledByAuthor\":false}")
                .post("/linkedin/rest/posts");
    }

    @Test
    void authorizationCodeBecomesATokenWithAnIdTokenNamingTheMember() {
        JsonPath token = connect("openid profile w_member_social");

        assertThat(token.getString("access_token")).startsWith("AQV");
        assertThat(token.getString("refresh_token")).startsWith("AQX");
        assertThat(token.getLong("expires_in")).isEqualTo(5_184_000L);
        assertThat(token.getString("scope")).isEqualTo("openid,profile,w_member_social");
        String claims = new String(
                Base64.getUrlDecoder().decode(token.getString("id_token").split("\\.")[1]), StandardCharsets.UTF_8);
        assertThat(claims).contains("\"sub\":\"hF4k3Mbr0q\"").contains("\"aud\":\"" + CLIENT + "\"");
        given().header("Authorization", "Bearer " + token.getString("access_token"))
                .get("/linkedin/v2/userinfo")
                .then()
                .statusCode(200)
                .body("sub", equalTo("hF4k3Mbr0q"))
                .body("name", equalTo("Fay Kerr"));
    }

    @Test
    void aCodeIsRedeemedOnceAndOnlyWithItsRedirectUriAndClientSecret() {
        Map<String, String> back = OAuthDance.authorize(
                "/linkedin/oauth/v2/authorization",
                Map.of(
                        "response_type",
                        "code",
                        "client_id",
                        CLIENT,
                        "redirect_uri",
                        REDIRECT,
                        "scope",
                        "openid",
                        "state",
                        "s"));
        Map<String, String> form = Map.of(
                "grant_type",
                "authorization_code",
                "code",
                back.get("code"),
                "client_id",
                CLIENT,
                "client_secret",
                SECRET,
                "redirect_uri",
                REDIRECT);

        given().formParams(Map.of(
                        "grant_type",
                        "authorization_code",
                        "code",
                        back.get("code"),
                        "client_id",
                        CLIENT,
                        "client_secret",
                        "wrong",
                        "redirect_uri",
                        REDIRECT))
                .post("/linkedin/oauth/v2/accessToken")
                .then()
                .statusCode(401)
                .body("error", equalTo("invalid_client"));
        given().formParams(Map.of(
                        "grant_type",
                        "authorization_code",
                        "code",
                        back.get("code"),
                        "client_id",
                        CLIENT,
                        "client_secret",
                        SECRET,
                        "redirect_uri",
                        REDIRECT + "/other"))
                .post("/linkedin/oauth/v2/accessToken")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_grant"));
        // The mismatch above consumed the code, as a provider that suspects a stolen code does.
        given().formParams(form)
                .post("/linkedin/oauth/v2/accessToken")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_grant"));
    }

    @Test
    void anUnknownClientIsShownAnErrorPageInsteadOfBeingRedirected() {
        given().redirects()
                .follow(false)
                .queryParams(Map.of(
                        "response_type", "code", "client_id", "someone-else", "redirect_uri", REDIRECT, "state", "s"))
                .get("/linkedin/oauth/v2/authorization")
                .then()
                .statusCode(400);
    }

    @Test
    void theMemberAdministersOneOrganization() {
        String token = connect("openid profile r_organization_admin").getString("access_token");

        given().header("Authorization", "Bearer " + token)
                .header("LinkedIn-Version", "202601")
                .queryParams(Map.of("q", "roleAssignee", "role", "ADMINISTRATOR", "state", "APPROVED"))
                .get("/linkedin/rest/organizationAcls")
                .then()
                .statusCode(200)
                .body("elements[0].organization", equalTo("urn:li:organization:90421377"));
        given().header("Authorization", "Bearer " + token)
                .header("LinkedIn-Version", "202601")
                .get("/linkedin/rest/organizations/90421377")
                .then()
                .statusCode(200)
                .body("localizedName", equalTo("Herald Fake Industries"));
        given().header("Authorization", "Bearer " + token)
                .get("/linkedin/rest/organizations/90421377")
                .then()
                .statusCode(400)
                .body("code", equalTo("VERSION_MISSING"));
    }

    @Test
    void aPostIsCreatedWithItsUrnInTheRestliIdHeaderAndListedForItsAuthor() {
        String token = connect("openid profile w_member_social r_member_social").getString("access_token");

        Response created = createPost(token, "urn:li:person:hF4k3Mbr0q", "Hello from the fake");

        assertThat(created.statusCode()).isEqualTo(201);
        String urn = created.header("x-restli-id");
        assertThat(urn).matches("urn:li:share:[0-9]{19}");
        given().header("Authorization", "Bearer " + token)
                .header("LinkedIn-Version", "202601")
                .header("X-Restli-Protocol-Version", "2.0.0")
                .urlEncodingEnabled(false)
                .queryParam("q", "author")
                .queryParam("author", "urn%3Ali%3Aperson%3AhF4k3Mbr0q")
                .queryParam("count", 10)
                .queryParam("sortBy", "LAST_MODIFIED")
                .get("/linkedin/rest/posts")
                .then()
                .statusCode(200)
                .body("elements", hasSize(1))
                .body("elements[0].id", equalTo(urn))
                .body("elements[0].commentary", equalTo("Hello from the fake"));
        given().get("/_fakes/linkedin/posts").then().statusCode(200).body("data[0].id", equalTo(urn));
    }

    @Test
    void listingAMembersPostsNeedsRMemberSocialAsAtLinkedIn() {
        String token = connect("openid profile w_member_social").getString("access_token");
        createPost(token, "urn:li:person:hF4k3Mbr0q", "Hello").then().statusCode(201);

        given().header("Authorization", "Bearer " + token)
                .header("LinkedIn-Version", "202601")
                .queryParams(Map.of("q", "author", "author", "urn:li:person:hF4k3Mbr0q"))
                .get("/linkedin/rest/posts")
                .then()
                .statusCode(403)
                .body("code", equalTo("ACCESS_DENIED"));
    }

    @Test
    void postingAsSomeoneElseOrWithoutAnIssuedTokenIsRefused() {
        String token = connect("openid profile w_member_social").getString("access_token");

        createPost(token, "urn:li:person:someoneElse", "Hi")
                .then()
                .statusCode(403)
                .body("serviceErrorCode", equalTo(100));
        createPost("AQVnotIssuedByTheFake", "urn:li:person:hF4k3Mbr0q", "Hi")
                .then()
                .statusCode(401)
                .body("code", equalTo("INVALID_ACCESS_TOKEN"))
                .body("serviceErrorCode", equalTo(65600));
    }

    @Test
    void theJournalKeepsEveryRequestWithTheTokenHashedNotShown() {
        String token = connect("openid profile w_member_social").getString("access_token");
        createPost(token, "urn:li:person:hF4k3Mbr0q", "Journaled").then().statusCode(201);

        JsonPath journal = given().get("/_fakes/linkedin/requests")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        List<Map<String, Object>> entries = journal.getList("data");
        assertThat(entries)
                .extracting(entry -> entry.get("method") + " " + entry.get("path"))
                .containsExactly("GET /oauth/v2/authorization", "POST /oauth/v2/accessToken", "POST /rest/posts");
        Map<String, Object> post = entries.get(2);
        assertThat(post.get("status")).isEqualTo(201);
        @SuppressWarnings("unchecked")
        Map<String, List<String>> headers = (Map<String, List<String>>) post.get("headers");
        assertThat(headers.get("authorization"))
                .singleElement()
                .asString()
                .matches("Bearer sha256:[0-9a-f]{16}")
                .doesNotContain(token);
        assertThat(headers.get("linkedin-version")).containsExactly("202601");
        assertThat(headers.get("x-restli-protocol-version")).containsExactly("2.0.0");
        assertThat((String) post.get("body")).contains("\"commentary\":\"Journaled\"");

        given().delete("/_fakes/linkedin/requests").then().statusCode(204);
        given().get("/_fakes/linkedin/requests").then().body("data", hasSize(0));
    }

    @Test
    void refreshKeepsTheRefreshTokenAndRevokeEndsTheWholeGrant() {
        JsonPath token = connect("openid profile w_member_social");
        String refreshToken = token.getString("refresh_token");

        JsonPath refreshed = given().formParams(Map.of(
                        "grant_type",
                        "refresh_token",
                        "refresh_token",
                        refreshToken,
                        "client_id",
                        CLIENT,
                        "client_secret",
                        SECRET))
                .post("/linkedin/oauth/v2/accessToken")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(refreshed.getString("access_token")).isNotEqualTo(token.getString("access_token"));
        assertThat(refreshed.getString("refresh_token")).isEqualTo(refreshToken);

        given().formParams(Map.of(
                        "client_id", CLIENT, "client_secret", SECRET, "token", refreshed.getString("access_token")))
                .post("/linkedin/oauth/v2/revoke")
                .then()
                .statusCode(200);
        given().header("Authorization", "Bearer " + token.getString("access_token"))
                .get("/linkedin/v2/userinfo")
                .then()
                .statusCode(401)
                .body("code", equalTo("REVOKED_ACCESS_TOKEN"));
        given().formParams(Map.of(
                        "grant_type",
                        "refresh_token",
                        "refresh_token",
                        refreshToken,
                        "client_id",
                        CLIENT,
                        "client_secret",
                        SECRET))
                .post("/linkedin/oauth/v2/accessToken")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_grant"))
                .body("error_description", startsWith("The provided refresh token"));
    }

    static io.restassured.specification.RequestSpecification rest(String token) {
        return given().header("Authorization", "Bearer " + token)
                .header("LinkedIn-Version", "202601")
                .header("X-Restli-Protocol-Version", "2.0.0")
                .contentType(ContentType.JSON);
    }

    private static Response postWithMedia(String token, String author, String mediaUrn) {
        return rest(token)
                .body("{\"author\":\"" + author + "\",\"commentary\":\"With media\",\"visibility\":\"PUBLIC\","
                        + "\"distribution\":{\"feedDistribution\":\"MAIN_FEED\",\"targetEntities\":[],\"thirdPartyDistributionChannels\":[]},"
                        + "\"content\":{\"media\":{\"id\":\"" + mediaUrn
                        + "\"}},\"lifecycleState\":\"PUBLISHED\",\"isReshareDisabledByAuthor\":false}")
                .post("/linkedin/rest/posts");
    }

    private static byte[] generated(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }

    private static String sha256(byte[] bytes) throws Exception {
        return java.util.HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void aDocumentIsUploadedThroughTheDocumentsApiAndPostedByItsUrnOnlyByItsOwnerOnceUploaded() throws Exception {
        String token =
                connect("openid profile w_member_social w_organization_social").getString("access_token");
        String member = "urn:li:person:hF4k3Mbr0q";
        JsonPath initialized = rest(token)
                .body("{\"initializeUploadRequest\":{\"owner\":\"" + member + "\"}}")
                .post("/linkedin/rest/documents?action=initializeUpload")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        String document = initialized.getString("value.document");
        String uploadUrl = initialized.getString("value.uploadUrl");
        assertThat(document).startsWith("urn:li:document:");
        assertThat(uploadUrl).matches("^http://[^/]+/linkedin/dms-uploads/[A-Za-z0-9]+$");
        // Not uploaded yet, and never heard of: LinkedIn posts neither.
        postWithMedia(token, member, document).then().statusCode(422);
        postWithMedia(token, member, "urn:li:document:D5NeverUploaded").then().statusCode(422);

        byte[] bytes = generated(300_000);
        given().header("Authorization", "Bearer " + token)
                .contentType("application/pdf")
                .body(bytes)
                .put(java.net.URI.create(uploadUrl).getPath())
                .then()
                .statusCode(201);
        // Another author's post cannot carry the member's document.
        postWithMedia(token, "urn:li:organization:90421377", document)
                .then()
                .statusCode(422)
                .body("message", containsString("not an available upload of the author"));
        String urn = postWithMedia(token, member, document)
                .then()
                .statusCode(201)
                .extract()
                .header("x-restli-id");

        given().get("/_fakes/linkedin/posts")
                .then()
                .statusCode(200)
                .body("data[0].id", equalTo(urn))
                .body("data[0].content.media.id", equalTo(document));
        List<String> paths = given().get("/_fakes/linkedin/requests")
                .then()
                .extract()
                .jsonPath()
                .getList("data.path");
        assertThat(paths).contains("/rest/documents");
        List<String> bodies = given().get("/_fakes/linkedin/requests")
                .then()
                .extract()
                .jsonPath()
                .getList("data.findAll { it.method == 'PUT' }.body");
        assertThat(bodies).containsExactly("<300000 bytes, sha256 " + sha256(bytes) + ">");
    }

    @Test
    void anImageIsUploadedToTheUrlItsInitializationAnswersAndPostedByItsUrn() throws Exception {
        String token = connect("openid profile w_member_social").getString("access_token");
        String member = "urn:li:person:hF4k3Mbr0q";
        JsonPath initialized = rest(token)
                .body("{\"initializeUploadRequest\":{\"owner\":\"" + member + "\"}}")
                .post("/linkedin/rest/images?action=initializeUpload")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        String image = initialized.getString("value.image");
        String uploadUrl = initialized.getString("value.uploadUrl");
        assertThat(image).startsWith("urn:li:image:");
        assertThat(uploadUrl).matches("^http://[^/]+/linkedin/dms-uploads/[A-Za-z0-9]+$");
        // Not uploaded yet: LinkedIn would not show a post of it.
        postWithMedia(token, member, image).then().statusCode(422);

        byte[] bytes = generated(1_500_000);
        given().header("Authorization", "Bearer " + token)
                .contentType("image/png")
                .body(bytes)
                .put(java.net.URI.create(uploadUrl).getPath())
                .then()
                .statusCode(201);
        String urn = postWithMedia(token, member, image)
                .then()
                .statusCode(201)
                .extract()
                .header("x-restli-id");

        given().get("/_fakes/linkedin/posts")
                .then()
                .statusCode(200)
                .body("data[0].id", equalTo(urn))
                .body("data[0].content.media.id", equalTo(image));
        // The journal keeps what the upload carried, not the bytes.
        List<String> bodies = given().get("/_fakes/linkedin/requests")
                .then()
                .extract()
                .jsonPath()
                .getList("data.findAll { it.method == 'PUT' }.body");
        assertThat(bodies).containsExactly("<1500000 bytes, sha256 " + sha256(bytes) + ">");
    }

    @Test
    void aVideoIsUploadedInFourMebibytePartsFinalizedWithTheirETagsInOrderAndThenAvailable() {
        String token = connect("openid profile w_member_social").getString("access_token");
        String member = "urn:li:person:hF4k3Mbr0q";
        int size = 4 * 1024 * 1024 + 1000;
        JsonPath initialized = rest(token)
                .body("{\"initializeUploadRequest\":{\"owner\":\"" + member + "\",\"fileSizeBytes\":" + size
                        + ",\"uploadCaptions\":false,\"uploadThumbnail\":false}}")
                .post("/linkedin/rest/videos?action=initializeUpload")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        String video = initialized.getString("value.video");
        List<Map<String, Object>> parts = initialized.getList("value.uploadInstructions");
        assertThat(parts).hasSize(2);
        assertThat(parts.get(0)).containsEntry("firstByte", 0).containsEntry("lastByte", 4 * 1024 * 1024 - 1);
        assertThat(parts.get(1)).containsEntry("firstByte", 4 * 1024 * 1024).containsEntry("lastByte", size - 1);

        byte[] bytes = generated(size);
        List<String> etags = new java.util.ArrayList<>();
        for (Map<String, Object> part : parts) {
            int first = (Integer) part.get("firstByte");
            int last = (Integer) part.get("lastByte");
            etags.add(given().contentType("application/octet-stream")
                    .body(java.util.Arrays.copyOfRange(bytes, first, last + 1))
                    .put(java.net.URI.create((String) part.get("uploadUrl")).getPath())
                    .then()
                    .statusCode(200)
                    .extract()
                    .header("ETag"));
        }
        String encoded = video.replace(":", "%3A");
        rest(token)
                .body("{\"finalizeUploadRequest\":{\"video\":\"" + video
                        + "\",\"uploadToken\":\"\",\"uploadedPartIds\":[\""
                        + etags.get(1).replace("\"", "\\\"") + "\",\""
                        + etags.get(0).replace("\"", "\\\"") + "\"]}}")
                .post("/linkedin/rest/videos?action=finalizeUpload")
                .then()
                .statusCode(400);
        rest(token)
                .urlEncodingEnabled(false)
                .get("/linkedin/rest/videos/" + encoded)
                .then()
                .statusCode(200)
                .body("status", equalTo("WAITING_UPLOAD"));
        rest(token)
                .body("{\"finalizeUploadRequest\":{\"video\":\"" + video
                        + "\",\"uploadToken\":\"\",\"uploadedPartIds\":[\""
                        + etags.get(0).replace("\"", "\\\"") + "\",\""
                        + etags.get(1).replace("\"", "\\\"") + "\"]}}")
                .post("/linkedin/rest/videos?action=finalizeUpload")
                .then()
                .statusCode(200);

        rest(token)
                .urlEncodingEnabled(false)
                .get("/linkedin/rest/videos/" + encoded)
                .then()
                .statusCode(200)
                .body("id", equalTo(video))
                .body("status", equalTo("AVAILABLE"));
        postWithMedia(token, member, video).then().statusCode(201);
    }
}
