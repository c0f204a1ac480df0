package dev.herald.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.herald.common.auth.InternalTokens;
import dev.herald.common.auth.Mode;
import dev.herald.gateway.AdminApi;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class OAuthAccessTokenTest {
    static final String ADMIN = AdminApi.ADMIN;
    static final String RESOURCE = "http://localhost:8081/api/v1";

    @Inject
    InternalTokens keys;

    private String workspace;
    private String clientId;
    private String clientSecret;

    @BeforeEach
    void newClient() {
        workspace = AdminApi.newWorkspace("OAuth");
        JsonPath client = given().header("Authorization", ADMIN)
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"live\",\"scopes\":[\"profiles:read\",\"posts:read\"]}")
                .post("/admin/v1/workspaces/" + workspace + "/oauth-clients")
                .then()
                .statusCode(201)
                .body("data.client_id", matchesPattern("^cli_[a-f0-9]{24}$"))
                .body("data.client_secret", matchesPattern("^hcs_[A-Za-z0-9]{40}$"))
                .extract()
                .jsonPath();
        clientId = client.getString("data.client_id");
        clientSecret = client.getString("data.client_secret");
    }

    private JsonPath token(String scope) {
        var request = given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .formParam("resource", RESOURCE);
        if (scope != null) {
            request.formParam("scope", scope);
        }
        return request.post("/oauth/token")
                .then()
                .statusCode(200)
                .header("Cache-Control", "no-store")
                .body("token_type", equalTo("Bearer"))
                .body("expires_in", equalTo(3600))
                .extract()
                .jsonPath();
    }

    @Test
    void aClientCredentialsTokenActsForItsWorkspaceModeAndScopes() {
        JsonPath granted = token(null);
        assertThat(granted.getString("scope")).isEqualTo("posts:read profiles:read");
        String accessToken = granted.getString("access_token");
        given().header("Authorization", "Bearer " + accessToken)
                .get("/api/v1/profiles")
                .then()
                .statusCode(200)
                .header("X-RateLimit-Limit", "30");
        var caller = keys.verifier()
                .verify(EchoUpstream.lastHeaders.get("authorization").substring(7))
                .orElseThrow();
        assertThat(caller.workspaceId()).isEqualTo(workspace);
        assertThat(caller.mode()).isEqualTo(Mode.LIVE);
        assertThat(caller.scopes()).containsExactlyInAnyOrder("profiles:read", "posts:read");
        assertThat(caller.keyId()).isEqualTo(clientId);
    }

    @Test
    void aNarrowerScopeCanBeAskedForAndIsEnforced() {
        String accessToken = token("profiles:read").getString("access_token");
        given().header("Authorization", "Bearer " + accessToken)
                .get("/api/v1/posts")
                .then()
                .statusCode(403)
                .body("error.code", equalTo("insufficient_scope"))
                .body("error.details.required_scope", equalTo("posts:read"))
                .body("error.message", equalTo("This access token lacks the posts:read scope."));
    }

    @Test
    void theBearerSchemeIsMatchedWhateverItsCase() {
        String accessToken = token("profiles:read").getString("access_token");
        given().header("Authorization", "bearer " + accessToken)
                .get("/api/v1/profiles")
                .then()
                .statusCode(200);
        given().header("Authorization", "BEARER " + accessToken)
                .get("/api/v1/profiles")
                .then()
                .statusCode(200);
    }

    @Test
    void theTokenEndpointRefusesBadRequestsInOAuthTerms() {
        given().auth()
                .preemptive()
                .basic(clientId, "wrong")
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .post("/oauth/token")
                .then()
                .statusCode(401)
                .body("error", equalTo("invalid_client"));
        given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .formParam("resource", "https://other.example/api/v1")
                .post("/oauth/token")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_target"));
        given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "password")
                .post("/oauth/token")
                .then()
                .statusCode(400)
                .body("error", equalTo("unsupported_grant_type"));
        given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .formParam("scope", "webhooks:write")
                .post("/oauth/token")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_scope"));
        given().contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .post("/oauth/token")
                .then()
                .statusCode(401)
                .body("error", equalTo("invalid_client"))
                .header("WWW-Authenticate", "Basic realm=\"herald\"")
                .header("Cache-Control", "no-store");
    }

    @Test
    void theTokenEndpointTakesEitherClientAuthenticationMethodButNotBoth() {
        given().contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .formParam("client_id", clientId)
                .formParam("client_secret", clientSecret)
                .post("/oauth/token")
                .then()
                .statusCode(200)
                .body("token_type", equalTo("Bearer"));
        String basic = Base64.getEncoder().encodeToString((clientId + ":" + clientSecret).getBytes());
        given().header("Authorization", "basic " + basic)
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .post("/oauth/token")
                .then()
                .statusCode(200);
        given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .formParam("client_secret", clientSecret)
                .post("/oauth/token")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_request"))
                .body(
                        "error_description",
                        equalTo(
                                "Authenticate the client by one method: HTTP Basic or client_id and client_secret, not both."));
        given().header("Authorization", "Bearer " + clientSecret)
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .post("/oauth/token")
                .then()
                .statusCode(401)
                .body("error", equalTo("invalid_client"));
    }

    @Test
    void aParameterSentTwiceIsRefusedInsteadOfTakingTheFirst() {
        for (String form : new String[] {
            "grant_type=client_credentials&grant_type=password",
            "grant_type=client_credentials&scope=profiles%3Aread&scope=posts%3Aread",
            "grant_type=client_credentials&resource=" + RESOURCE + "&resource=https%3A%2F%2Fevil.example"
        }) {
            String repeated = form.substring(form.lastIndexOf('&') + 1, form.lastIndexOf('='));
            given().auth()
                    .preemptive()
                    .basic(clientId, clientSecret)
                    .contentType(ContentType.URLENC)
                    .body(form)
                    .post("/oauth/token")
                    .then()
                    .statusCode(400)
                    .body("error", equalTo("invalid_request"))
                    .body("error_description", equalTo("The parameter " + repeated + " is given more than once."));
        }
        // Sent without a value is the same as omitted (RFC 6749 section 3.1): the client's own scopes.
        given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.URLENC)
                .body("grant_type=client_credentials&scope=")
                .post("/oauth/token")
                .then()
                .statusCode(200)
                .body("scope", equalTo("posts:read profiles:read"));
    }

    @Test
    void aLargeOrMisTypedTokenRequestGetsAnOAuthRefusalNotAServerError() {
        String tenKilobytes = "a".repeat(10_000);
        given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.URLENC)
                .body("grant_type=client_credentials&padding=" + tenKilobytes)
                .post("/oauth/token")
                .then()
                .statusCode(200)
                .body("token_type", equalTo("Bearer"));
        given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.URLENC)
                .body("grant_type=client_credentials&padding=" + "a".repeat(2 * 1024 * 1024))
                .post("/oauth/token")
                .then()
                .statusCode(413)
                .body("error", equalTo("invalid_request"))
                .body("error_description", equalTo("The token request is larger than 16 KiB."))
                .header("Cache-Control", "no-store");
        given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.JSON)
                .body("{\"grant_type\":\"client_credentials\"}")
                .post("/oauth/token")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_request"))
                .body("error_description", equalTo("The token request must be application/x-www-form-urlencoded."));
        given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.URLENC)
                .body("grant_type=client_credentials&scope=%zz")
                .post("/oauth/token")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_request"));
        given().get("/oauth/token")
                .then()
                .statusCode(405)
                .header("Allow", "POST")
                .body("error", equalTo("invalid_request"));
    }

    @Test
    void everyTokenEndpointAnswerCarriesTheRateLimitHeaders() {
        given().auth()
                .preemptive()
                .basic(clientId, "wrong")
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .post("/oauth/token")
                .then()
                .statusCode(401)
                .header("X-RateLimit-Limit", "60")
                .header("X-RateLimit-Remaining", notNullValue())
                .header("X-RateLimit-Reset", notNullValue())
                .header("x-request-id", notNullValue());
        given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .post("/oauth/token")
                .then()
                .statusCode(200)
                .header("X-RateLimit-Limit", "60");
    }

    @Test
    void tokensForAnotherResourceExpiredForgedOrUnsignedAreRefused() {
        Instant now = Instant.now();
        String wrongAudience = mint(keys, "herald", "https://other.example/api/v1", now.plusSeconds(600));
        String expired = mint(keys, "herald", RESOURCE, now.minusSeconds(30));
        String foreignIssuer = mint(keys, "https://evil.example", RESOURCE, now.plusSeconds(600));
        String valid = mint(keys, "herald", RESOURCE, now.plusSeconds(600));
        String[] parts = valid.split("\\.");
        String unsigned =
                Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes())
                        + "." + parts[1] + ".";
        java.util.Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("wrong audience", wrongAudience);
        refused.put("expired", expired);
        refused.put("foreign issuer", foreignIssuer);
        refused.put("alg none", unsigned);
        refused.put("bad signature", parts[0] + "." + parts[1] + ".AAAA");
        // The gateway's key, but the header names no key of the verification set, or none at all.
        refused.put("unknown kid", mint(keys, "unknown-kid", now.plusSeconds(600)));
        refused.put("no kid", mint(keys, null, now.plusSeconds(600)));
        refused.forEach((why, bad) -> assertThat(given().header("Authorization", "Bearer " + bad)
                        .get("/api/v1/profiles")
                        .statusCode())
                .as(why)
                .isEqualTo(401));
        given().header("Authorization", "Bearer " + valid)
                .get("/api/v1/profiles")
                .then()
                .statusCode(200);
    }

    @Test
    void revokingTheClientCutsItsTokensOff() {
        String accessToken = token(null).getString("access_token");
        given().header("Authorization", "Bearer " + accessToken)
                .get("/api/v1/profiles")
                .then()
                .statusCode(200);
        given().header("Authorization", ADMIN)
                .delete("/admin/v1/oauth-clients/" + clientId)
                .then()
                .statusCode(200)
                .body("data.revoked_at", org.hamcrest.Matchers.notNullValue())
                .body("data.client_secret", nullValue());
        given().header("Authorization", "Bearer " + accessToken)
                .get("/api/v1/profiles")
                .then()
                .statusCode(401);
        given().auth()
                .preemptive()
                .basic(clientId, clientSecret)
                .contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials")
                .post("/oauth/token")
                .then()
                .statusCode(401);
    }

    private String mint(InternalTokens keys, String issuer, String audience, Instant expiresAt) {
        return mint(keys, issuer, audience, keys.signingKeyId(), expiresAt);
    }

    private String mint(InternalTokens keys, String kid, Instant expiresAt) {
        return mint(keys, "herald", RESOURCE, kid, expiresAt);
    }

    private String mint(InternalTokens keys, String issuer, String audience, String kid, Instant expiresAt) {
        io.smallrye.jwt.build.JwtSignatureBuilder jws = Jwt.issuer(issuer)
                .audience(audience)
                .subject(clientId)
                .claim("wid", workspace)
                .claim("mode", "live")
                .claim("scope", "profiles:read")
                .issuedAt(expiresAt.minusSeconds(3600))
                .expiresAt(expiresAt)
                .jws()
                .algorithm(SignatureAlgorithm.RS256);
        return (kid == null ? jws : jws.keyId(kid)).sign(keys.signingKey());
    }
}
