package dev.herald.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(value = HostedPageUpstream.class, restrictToAnnotatedClass = true)
// The address limit's test runs last: it spends this minute's allowance of the test client's address.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostedPageRoutesTest {

    @Test
    void pagesNeedNoApiKeyAndPassCookiesAndLanguagesButNeverCredentials() {
        given().header("Authorization", "Bearer sk_test_not_for_accounts_service")
                .cookie("herald_connect", "abc")
                .header("Accept-Language", "de-AT,de;q=0.9,en;q=0.5")
                .header("X-Forwarded-For", "203.0.113.9")
                .get("/connect/token-123")
                .then()
                .statusCode(200)
                .contentType(containsString("text/html"))
                .body(containsString("GET /connect/token-123 0"))
                .header("Set-Cookie", containsString("herald_connect=bound"))
                .header("Content-Security-Policy", equalTo("frame-ancestors 'none'"))
                .header("x-request-id", org.hamcrest.Matchers.startsWith("req_"));
        assertThat(HostedPageUpstream.lastHeaders)
                .containsEntry("cookie", "herald_connect=abc")
                .containsEntry("accept-language", "de-AT,de;q=0.9,en;q=0.5")
                .doesNotContainKeys("authorization", "x-forwarded-for");
    }

    @Test
    void formPostsAreForwardedWithTheirBodyAndRedirectsReachTheBrowser() {
        given().redirects()
                .follow(false)
                .contentType("application/x-www-form-urlencoded")
                .formParam("csrf", "t")
                .formParam("platform", "tiktok")
                .post("/connect/sessions/cs_1/authorize")
                .then()
                .statusCode(303)
                .header("Location", "/connect/sessions/cs_1")
                .body(containsString("POST /connect/sessions/cs_1/authorize 22"));
        assertThat(HostedPageUpstream.lastHeaders)
                .containsEntry("content-type", "application/x-www-form-urlencoded; charset=ISO-8859-1");
    }

    @Test
    void oversizedFormsAreRefusedAtTheEdge() {
        given().contentType("application/x-www-form-urlencoded")
                .body("x=" + "a".repeat(HostedPageRoutes.MAX_BODY_BYTES))
                .post("/connect/sessions/cs_1/authorize")
                .then()
                .statusCode(413)
                .header("Cache-Control", "no-store");
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void oneAddressGetsALimitedNumberOfPagesPerMinute() {
        for (int attempt = 0; attempt < 2; attempt++) {
            long minute = Instant.now().getEpochSecond() / 60;
            int refusedAt = -1;
            for (int i = 1; i <= HostedPageUpstream.PER_ADDRESS_PER_MINUTE + 1 && refusedAt < 0; i++) {
                int status = given().get("/connect/limit-" + i).statusCode();
                if (status == 429) {
                    refusedAt = i;
                }
            }
            if (Instant.now().getEpochSecond() / 60 != minute) {
                continue; // a new window started mid-way; count again in this one
            }
            // Earlier tests of this class used part of this minute's allowance, so the refusal may come sooner.
            assertThat(refusedAt).isBetween(1, HostedPageUpstream.PER_ADDRESS_PER_MINUTE + 1);
            given().get("/connect/after-limit")
                    .then()
                    .statusCode(429)
                    .header("Retry-After", org.hamcrest.Matchers.notNullValue())
                    .header("Content-Security-Policy", containsString("frame-ancestors 'none'"));
            return;
        }
        throw new AssertionError("two minute boundaries passed during the test");
    }
}
