package dev.herald.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.InternalTokens;
import dev.herald.common.auth.Mode;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tokens of an external OIDC issuer configured by URL are accepted on the same terms as our own. */
@QuarkusTest
@TestProfile(ExternalIssuerTokenTest.WithExternalIssuer.class)
class ExternalIssuerTokenTest {
    static final String RESOURCE = "http://localhost:8081/api/v1";

    public static class WithExternalIssuer implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(
                    new TestResourceEntry(RealInfrastructure.class, Map.of("database", "gateway_test")),
                    new TestResourceEntry(EchoUpstream.class),
                    new TestResourceEntry(ExternalIssuer.class));
        }
    }

    @Inject
    InternalTokens keys;

    private static String externalToken(String audience, String scope) {
        Instant now = Instant.now();
        return Jwt.issuer(ExternalIssuer.ISSUER)
                .audience(audience)
                .subject("service-account-42")
                .claim("wid", "ws_0000000000000000000000ee")
                .claim("mode", "test")
                .claim("scope", scope)
                .issuedAt(now)
                .expiresAt(now.plusSeconds(300))
                .jws()
                .keyId(ExternalIssuer.KEY_ID)
                .algorithm(SignatureAlgorithm.RS256)
                .sign(ExternalIssuer.KEYS.getPrivate());
    }

    @Test
    void anExternalTokenForThisResourceIsAccepted() {
        given().header("Authorization", "Bearer " + externalToken(RESOURCE, "profiles:read"))
                .get("/api/v1/profiles")
                .then()
                .statusCode(200);
        var caller = keys.verifier()
                .verify(EchoUpstream.lastHeaders.get("authorization").substring(7))
                .orElseThrow();
        assertThat(caller.workspaceId()).isEqualTo("ws_0000000000000000000000ee");
        assertThat(caller.mode()).isEqualTo(Mode.TEST);
        assertThat(caller.keyId()).isEqualTo("ext:" + ExternalIssuer.ISSUER + ":service-account-42");
    }

    @Test
    void anExternalTokenForAnotherResourceOrWithoutTheScopeIsRefused() {
        given().header("Authorization", "Bearer " + externalToken("https://other.example/api/v1", "profiles:read"))
                .get("/api/v1/profiles")
                .then()
                .statusCode(401);
        given().header("Authorization", "Bearer " + externalToken(RESOURCE, "profiles:read"))
                .get("/api/v1/posts")
                .then()
                .statusCode(403);
    }
}
