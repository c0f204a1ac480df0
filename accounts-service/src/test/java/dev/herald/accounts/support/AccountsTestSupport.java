package dev.herald.accounts.support;

import static io.restassured.RestAssured.given;

import dev.herald.common.auth.Mode;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/** Calls and direct SQL the accounts tests share. */
public final class AccountsTestSupport {
    public static final String DATABASE = "accounts_test";

    private AccountsTestSupport() {}

    public static RequestSpecification as(String workspaceId, Mode mode) {
        return given().header("Authorization", TestTokens.bearer(workspaceId, mode, "accounts:read", "accounts:write"))
                .contentType(ContentType.JSON);
    }

    /** A new sandbox account of the platform in the workspace (test mode); its id. */
    public static String sandbox(String workspaceId, String platform) {
        return as(workspaceId, Mode.TEST)
                .body("{\"platform\":\"" + platform + "\"}")
                .post("/accounts")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    public static long count(String sql, Object... parameters) throws Exception {
        return firstRow(sql, parameters, rows -> rows.getLong(1));
    }

    /** One statement, committed on its own. */
    public static void execute(String sql, Object... parameters) throws Exception {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, sql, parameters)) {
            statement.execute();
        }
    }

    /** The first column of the first row, as text. */
    public static String text(String sql, Object... parameters) throws Exception {
        return firstRow(sql, parameters, rows -> rows.getString(1));
    }

    /** What {@code read} takes from the query's first row. */
    private interface RowReader<T> {
        T read(ResultSet rows) throws java.sql.SQLException;
    }

    private static <T> T firstRow(String sql, Object[] parameters, RowReader<T> read) throws Exception {
        try (Connection connection = connect();
                PreparedStatement statement = prepare(connection, sql, parameters);
                ResultSet rows = statement.executeQuery()) {
            rows.next();
            return read.read(rows);
        }
    }

    private static Connection connect() throws java.sql.SQLException {
        return RealInfrastructure.connect(DATABASE);
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object[] parameters)
            throws java.sql.SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
        return statement;
    }

    /** Runs a service call on a Vert.x context, as a request would (Hibernate Reactive needs one), and waits for it. */
    public static <T> T onVertx(java.util.function.Supplier<io.smallrye.mutiny.Uni<T>> call) {
        try {
            return io.quarkus.vertx.VertxContextSupport.subscribeAndAwait(call);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
