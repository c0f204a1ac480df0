package dev.herald.usage.support;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.auth.RsaKeys;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.common.wire.UsageReservation;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.model.ReservationEntity;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.eclipse.microprofile.config.ConfigProvider;

/** Calls and direct SQL the usage tests share. */
public final class UsageTestSupport {
    public static final String DATABASE = "usage_test";
    private static final ObjectMapper JSON = new ObjectMapper();

    private UsageTestSupport() {}

    public static RequestSpecification as(String workspaceId, Mode mode) {
        return given().header("Authorization", TestTokens.bearer(workspaceId, mode))
                .contentType(ContentType.JSON);
    }

    /** An internal JWT as the gateway mints it for GET /usage, with its API-request count. */
    public static String bearerWithApiRequests(String workspaceId, Mode mode, long apiRequestsUsed) {
        String pem = ConfigProvider.getConfig().getValue("herald.internal-jwt.private-key", String.class);
        Instant now = Instant.now();
        return "Bearer "
                + Jwt.issuer("herald-gateway")
                        .audience("herald-services")
                        .subject("key_test")
                        .claim("wid", workspaceId)
                        .claim("mode", mode.wireName())
                        .claim("scope", "")
                        .claim("api_requests_used", apiRequestsUsed)
                        .issuedAt(now)
                        .expiresAt(now.plusSeconds(300))
                        .jws()
                        .keyId(TestTokens.KEY_ID)
                        .algorithm(SignatureAlgorithm.RS256)
                        .sign(RsaKeys.readPrivateKey(pem));
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
        return json(as(workspaceId, mode)
                        .get("/usage")
                        .then()
                        .statusCode(200)
                        .extract()
                        .response())
                .get("data");
    }

    public static Connection database() throws Exception {
        return RealInfrastructure.connect(DATABASE);
    }

    public static long count(String sql, Object... parameters) throws Exception {
        try (Connection connection = database();
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

    /**
     * Fires every request at once, each body at its path with the tenant's internal JWT, each on its own thread;
     * the statuses in order. For tests of what concurrent callers can and cannot overshoot.
     */
    public static List<Integer> race(String workspaceId, Mode mode, List<String> paths, List<String> bodies)
            throws Exception {
        String bearer = TestTokens.bearer(workspaceId, mode);
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        ExecutorService pool = Executors.newFixedThreadPool(bodies.size());
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < bodies.size(); i++) {
                String body = bodies.get(i);
                URI uri = URI.create("http://127.0.0.1:" + RestAssured.port + paths.get(i));
                calls.add(pool.submit(() -> {
                    start.await();
                    HttpRequest request = HttpRequest.newBuilder(uri)
                            .timeout(Duration.ofSeconds(60))
                            .header("Authorization", bearer)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build();
                    return http.send(request, HttpResponse.BodyHandlers.ofString())
                            .statusCode();
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> call : calls) {
                statuses.add(call.get());
            }
            return statuses;
        } finally {
            pool.shutdownNow();
        }
    }

    /** {@link #race} with every body sent to the same path. */
    public static List<Integer> race(String workspaceId, Mode mode, String path, List<String> bodies) throws Exception {
        return race(workspaceId, mode, Collections.nCopies(bodies.size(), path), bodies);
    }

    public static void connectAccounts(String workspaceId, Mode mode, int accounts) throws Exception {
        try (Connection connection = database();
                PreparedStatement insert = connection.prepareStatement(
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

    /** A reserved publication of one unit, as the service creates one, for tests that write rows themselves. */
    public static ReservationEntity reservedPublication(
            String workspaceId, Mode mode, String id, UsagePeriod period, Instant at) {
        ReservationEntity reservation = new ReservationEntity();
        reservation.workspaceId = workspaceId;
        reservation.mode = mode.wireName();
        reservation.id = id;
        reservation.meter = Meter.PUBLICATIONS.wireName();
        reservation.units = 1;
        reservation.status = UsageReservation.STATUS_RESERVED;
        reservation.periodStart = period.start();
        reservation.periodEnd = period.end();
        reservation.createdAt = at;
        reservation.updatedAt = at;
        return reservation;
    }
}
