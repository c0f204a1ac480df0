package dev.herald.usage.support;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.auth.RsaKeys;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import org.eclipse.microprofile.config.ConfigProvider;

/** Calls and direct SQL the usage tests share. */
public final class UsageTestSupport {
    public static final String DATABASE = "usage_test";
    private static final ObjectMapper JSON = new ObjectMapper();

    private UsageTestSupport() {
    }

    public static RequestSpecification as(String workspaceId, Mode mode) {
        return given().header("Authorization", TestTokens.bearer(workspaceId, mode)).contentType(ContentType.JSON);
    }

    /** An internal JWT as the gateway mints it for GET /usage, with its API-request count. */
    public static String bearerWithApiRequests(String workspaceId, Mode mode, long apiRequestsUsed) {
        String pem = ConfigProvider.getConfig().getValue("herald.internal-jwt.private-key", String.class);
        Instant now = Instant.now();
        return "Bearer " + Jwt.issuer("herald-gateway").audience("herald-services").subject("key_test")
                .claim("wid", workspaceId).claim("mode", mode.wireName()).claim("scope", "")
                .claim("api_requests_used", apiRequestsUsed)
                .issuedAt(now).expiresAt(now.plusSeconds(300))
                .jws().algorithm(SignatureAlgorithm.RS256).sign(RsaKeys.readPrivateKey(pem));
    }

    public static JsonNode json(Response response) {
        try {
            return JSON.readTree(response.asString());
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + response.asString(), e);
        }
    }

    public static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    public static JsonNode usage(String workspaceId, Mode mode) {
        return json(as(workspaceId, mode).get("/usage").then().statusCode(200).extract().response()).get("data");
    }

    public static Connection database() throws Exception {
        var postgres = RealInfrastructure.postgres();
        return DriverManager.getConnection(postgres.jdbcUrl(DATABASE), postgres.username(), postgres.password());
    }

    public static long count(String sql, Object... parameters) throws Exception {
        try (Connection connection = database(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    public static void connectAccounts(String workspaceId, Mode mode, int accounts) throws Exception {
        try (Connection connection = database(); PreparedStatement insert = connection.prepareStatement(
                "insert into connected_accounts (workspace_id, mode, account_id) values (?, ?, ?)")) {
            for (int i = 0; i < accounts; i++) {
                insert.setString(1, workspaceId);
                insert.setString(2, mode.wireName());
                insert.setString(3, "acc_" + String.format("%024x", i));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }
}
