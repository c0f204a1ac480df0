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
class DashboardKeysResourceTest {
    private static final Pattern SECRET = Pattern.compile("id=\"created-secret\">(sk_test_[A-Za-z0-9]{32})<");

    @Test
    void anOwnerCreatesAKeyThatWorksAndSeesItsSecretOnlyOnce() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String keys = owner.base("test") + "/keys";

        String created = owner.post(
                        keys, keys, Map.of("name", "Backend", "scope", List.of("posts:read", "profiles:read")))
                .then()
                .statusCode(201)
                .contentType(containsString("text/html"))
                .extract()
                .asString();
        Matcher secret = SECRET.matcher(created);
        assertThat(secret.find()).as("the secret is shown on creation").isTrue();

        // The key authenticates API requests at once.
        given().header("Authorization", "Bearer " + secret.group(1))
                .get("/api/v1/profiles")
                .then()
                .statusCode(200);
        owner.get(keys)
                .then()
                .statusCode(200)
                .body(containsString("Backend"))
                .body(containsString("…" + secret.group(1).substring(36)))
                .body(not(containsString(secret.group(1))));
    }

    @Test
    void badFormInputComesBackBesideItsField() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String keys = owner.base("test") + "/keys";
        owner.post(keys, keys, Map.of("name", "x".repeat(101)))
                .then()
                .statusCode(422)
                .contentType(containsString("text/html"))
                .body(containsString("id=\"key-name-error\">A name is at most 100 characters."))
                .body(containsString("id=\"key-scope-error\">Choose at least one scope."));
    }

    @Test
    void revokingAKeyStopsItAfterConfirmation() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String keys = owner.base("live") + "/keys";
        String created = owner.post(keys, keys, Map.of("scope", "profiles:read"))
                .then()
                .statusCode(201)
                .extract()
                .asString();
        Matcher secret = Pattern.compile("id=\"created-secret\">(sk_live_[A-Za-z0-9]{32})<")
                .matcher(created);
        assertThat(secret.find()).isTrue();
        Matcher keyId = Pattern.compile("data-key-id=\"(key_[a-f0-9]{24})\"").matcher(created);
        assertThat(keyId.find()).isTrue();
        String revoke = keys + "/" + keyId.group(1) + "/revoke";

        owner.get(revoke).then().statusCode(200).body(containsString("id=\"confirm-revoke\""));
        owner.post(revoke, revoke, Map.of())
                .then()
                .statusCode(303)
                .header("Location", containsString("/keys?revoked=" + keyId.group(1)));
        given().header("Authorization", "Bearer " + secret.group(1))
                .get("/api/v1/profiles")
                .then()
                .statusCode(401);
    }

    @Test
    void aViewerSeesKeysButCannotCreateThem() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        DashboardVisitor viewer = DashboardVisitor.signedIn(owner.workspaceId, "viewer");
        String keys = viewer.base("test") + "/keys";
        viewer.get(keys).then().statusCode(200).body(not(containsString("id=\"create-key\"")));
        viewer.post(keys, keys, Map.of("scope", "posts:read"))
                .then()
                .statusCode(403)
                .contentType(containsString("text/html"))
                .body(containsString("cannot create or revoke API keys"));
    }

    @Test
    void anotherWorkspacesPagesAreNotFound() {
        DashboardVisitor mine = DashboardVisitor.signedInToNewWorkspace("owner");
        DashboardVisitor theirs = DashboardVisitor.signedInToNewWorkspace("owner");
        mine.get(theirs.base("test") + "/keys")
                .then()
                .statusCode(404)
                .contentType(containsString("text/html"))
                .body(not(containsString("Acme")));
    }

    @Test
    void aFormWithoutTheSessionsCsrfTokenIsRefused() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        given().redirects()
                .follow(false)
                .cookie(DashboardResponses.COOKIE, owner.session)
                .contentType(ContentType.URLENC)
                .formParam("csrf", "forged")
                .formParam("scope", "posts:read")
                .post(owner.base("test") + "/keys")
                .then()
                .statusCode(403)
                .body(containsString("This form has expired"));
    }
}
