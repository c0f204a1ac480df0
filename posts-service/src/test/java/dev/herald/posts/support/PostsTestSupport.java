package dev.herald.posts.support;

import static io.restassured.RestAssured.given;

import dev.herald.common.auth.Mode;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;

/** Calls and direct SQL the posts tests share. */
public final class PostsTestSupport {
    public static final String DATABASE = "posts_test";

    private PostsTestSupport() {
    }

    public static RequestSpecification as(String workspaceId, Mode mode) {
        return given().header("Authorization", TestTokens.bearer(workspaceId, mode, "posts:read", "posts:write"))
                .contentType(ContentType.JSON);
    }

    /** A POST /posts request with a fresh Idempotency-Key. */
    public static RequestSpecification posting(String workspaceId, Mode mode) {
        return as(workspaceId, mode).header("Idempotency-Key", UUID.randomUUID().toString());
    }

    /** One statement, committed on its own. */
    public static void execute(String sql, Object... parameters) throws Exception {
        var postgres = RealInfrastructure.postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(DATABASE), postgres.username(), postgres.password());
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.execute();
        }
    }

    public static long count(String sql, Object... parameters) throws Exception {
        var postgres = RealInfrastructure.postgres();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(DATABASE), postgres.username(), postgres.password());
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
