package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The OIDC server the dashboard's sign-in tests use is a real, separate process that a browser can sign in at: an
 * authorization code reaches the relying party's redirect URI and buys an id token for what was typed into the
 * login form. Independent of the suite (no services needed).
 */
class OidcServerIT {
    private static OidcServer oidc;
    private static HeadlessChromium chromium;
    private static HttpServer relyingParty;
    private static final CompletableFuture<String> CALLBACK_QUERY = new CompletableFuture<>();

    @BeforeAll
    static void start() throws Exception {
        oidc = OidcServer.start("oidc-server-it");
        chromium = HeadlessChromium.start();
        relyingParty = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        relyingParty.createContext("/cb", exchange -> {
            CALLBACK_QUERY.complete(exchange.getRequestURI().getRawQuery());
            byte[] page = "<!DOCTYPE html><title>Signed in</title><h1>Signed in</h1>".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "text/html;charset=UTF-8");
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        relyingParty.start();
    }

    @AfterAll
    static void stop() {
        if (relyingParty != null) {
            relyingParty.stop(0);
        }
        if (chromium != null) {
            chromium.close();
        }
        if (oidc != null) {
            oidc.close();
        }
    }

    @Test
    void theDiscoveryDocumentNamesTheIssuerUrlOfAnotherProcess() {
        assertThat(oidc.issuer()).matches("http://127\\.0\\.0\\.1:\\d+/herald");
        assertThat(oidc.pid()).isNotEqualTo(ProcessHandle.current().pid());
        assertThat(oidc.isAlive()).isTrue();

        JsonPath discovery = RestAssured.get(oidc.discoveryUrl())
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(discovery.getString("issuer")).isEqualTo(oidc.issuer());
        assertThat(discovery.getString("authorization_endpoint")).isEqualTo(oidc.issuer() + "/authorize");
        assertThat(discovery.getString("token_endpoint")).isEqualTo(oidc.tokenEndpoint());
    }

    @Test
    void aBrowserSignInSendsACodeThatBuysAnIdTokenForTheTypedSubjectAndEmail() throws Exception {
        String redirectUri = "http://127.0.0.1:" + relyingParty.getAddress().getPort() + "/cb";
        chromium.driver()
                .get(oidc.issuer() + "/authorize?client_id=x&response_type=code&redirect_uri="
                        + URLEncoder.encode(redirectUri, StandardCharsets.UTF_8)
                        + "&scope=openid&state=s1&nonce=n1");

        oidc.signIn(chromium.driver(), "ada", "ada@example.com");

        Map<String, String> callback = queryParameters(CALLBACK_QUERY.get(20, TimeUnit.SECONDS));
        assertThat(callback).containsEntry("state", "s1").containsKey("code");
        assertThat(chromium.driver().getCurrentUrl()).startsWith(redirectUri + "?");

        String idToken = RestAssured.given()
                .auth()
                .preemptive()
                .basic("x", "any-secret")
                .formParam("grant_type", "authorization_code")
                .formParam("code", callback.get("code"))
                .formParam("redirect_uri", redirectUri)
                .post(oidc.tokenEndpoint())
                .then()
                .statusCode(200)
                .extract()
                .path("id_token");
        JsonPath claims = JsonPath.from(
                new String(Base64.getUrlDecoder().decode(idToken.split("\\.")[1]), StandardCharsets.UTF_8));
        assertThat(claims.getString("iss")).isEqualTo(oidc.issuer());
        assertThat(claims.getString("sub")).isEqualTo("ada");
        assertThat(claims.getString("email")).isEqualTo("ada@example.com");
        assertThat(claims.getBoolean("email_verified")).isTrue();
        assertThat(claims.getString("nonce")).isEqualTo("n1");
    }

    @Test
    void closingStopsTheServersProcess() throws Exception {
        OidcServer another = OidcServer.start("oidc-server-it-closed");
        long pid = another.pid();

        another.close();

        assertThat(another.isAlive()).isFalse();
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    }

    private static Map<String, String> queryParameters(String rawQuery) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&")) {
            int equals = pair.indexOf('=');
            parameters.put(
                    URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
        return parameters;
    }
}
