package dev.herald.accounts.rest;

import static dev.herald.accounts.support.AccountsTestSupport.as;
import static dev.herald.accounts.support.AccountsTestSupport.count;
import static dev.herald.accounts.support.AccountsTestSupport.execute;
import static dev.herald.accounts.support.AccountsTestSupport.onVertx;
import static dev.herald.accounts.support.AccountsTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.accounts.messaging.AccountAnalyticsRefreshJob;
import dev.herald.accounts.support.AccountsTestSupport;
import dev.herald.accounts.support.FakeServices;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /accounts/{id}/analytics} in test mode: the sandbox's documented numbers, their
 * growth, the cache and its header, YouTube's consent, disconnection, tenancy and the refresher.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = AccountsTestSupport.DATABASE))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
class AccountAnalyticsResourceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CACHE = "x-herald-cache";

    @Inject
    AccountAnalyticsRefreshJob refresher;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeServices.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    private String sandbox(String platform) {
        return AccountsTestSupport.sandbox(workspace, platform);
    }

    /** The account was created {@code minutes} whole minutes ago (and 30 seconds, so the minute does not turn). */
    private static void createdAgo(String account, int minutes) throws Exception {
        execute(
                "update accounts set created_at = now() - make_interval(mins => ?) - interval '30 seconds' where id = ?",
                minutes,
                account);
    }

    private static String externalId(String account) throws Exception {
        return text("select external_id from accounts where id = ?", account);
    }

    /** The documented seed: the first 4 bytes of SHA-256(external id), unsigned. */
    private static long seed(String externalId) throws Exception {
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(externalId.getBytes(StandardCharsets.UTF_8));
        return ((hash[0] & 0xffL) << 24) | ((hash[1] & 0xffL) << 16) | ((hash[2] & 0xffL) << 8) | (hash[3] & 0xffL);
    }

    private Response read(String account) {
        return as(workspace, Mode.TEST).get("/accounts/" + account + "/analytics");
    }

    private static JsonNode withoutRefreshedAt(Response response) throws Exception {
        ObjectNode data = (ObjectNode) JSON.readTree(response.asString()).get("data");
        assertThat(data.get("refreshed_at").isNull())
                .isEqualTo(data.get("metrics").isNull());
        data.remove("refreshed_at");
        return data;
    }

    @Test
    void aSandboxAccountAnswersTheDocumentedNumbersAndTheSecondReadIsAFreeCacheHit() throws Exception {
        String account = sandbox("pinterest");
        createdAgo(account, 3000);
        long s = seed(externalId(account));
        long views = 3000 * (1 + s % 10);
        JsonNode expected = JSON.readTree("""
                {"object":"account_analytics","account_id":"%s","platform":"pinterest","status":"available","reason":null,
                 "metrics":{"followers":%d,"following":%d,"posts":2,"views":%d,"likes":null},
                 "raw":{"simulated":true,"minutes_since_creation":3000}}""".formatted(account, 100 + 50 * (1 + s % 5), 10 + s % 90, views));

        Response first = read(account);
        first.then().statusCode(200).header(CACHE, nullValue());
        assertThat(withoutRefreshedAt(first)).isEqualTo(expected);

        Response second = read(account);
        second.then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.refreshed_at", equalTo(first.path("data.refreshed_at")));
        assertThat(withoutRefreshedAt(second)).isEqualTo(expected);
    }

    @Test
    void numbersGrowWithTheAccountsAgeOnceTheCachedOnesAreStale() throws Exception {
        String account = sandbox("facebook");
        createdAgo(account, 60);
        long s = seed(externalId(account));
        read(account)
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.metrics.followers", equalTo((int) (100 + (1 + s % 5))))
                .body("data.metrics.likes", equalTo((int) (60 * (1 + s % 10) / 12)))
                .body("data.metrics.views", nullValue());

        createdAgo(account, 600);
        execute(
                "update account_analytics set refreshed_at = refreshed_at - interval '16 minutes' where account_id = ?",
                account);
        read(account)
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.metrics.followers", equalTo((int) (100 + 10 * (1 + s % 5))))
                .body("data.metrics.likes", equalTo((int) (600 * (1 + s % 10) / 12)))
                .body("data.raw.minutes_since_creation", equalTo(600));
    }

    @Test
    void youtubeNumbersAreRedactedUntilTheOwnerAcceptsTheAnalyticsPolicy() throws Exception {
        String account = sandbox("youtube");
        Response redacted = read(account);
        redacted.then().statusCode(200).header(CACHE, equalTo("hit"));
        assertThat(withoutRefreshedAt(redacted)).isEqualTo(JSON.readTree("""
                {"object":"account_analytics","account_id":"%s","platform":"youtube","status":"redacted",
                 "reason":"analytics_consent_required","metrics":null,"raw":null}""".formatted(account)));
        assertThat(count("select count(*) from account_analytics where account_id = ?", account))
                .isZero();

        as(workspace, Mode.TEST)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\"}")
                .post("/accounts/" + account + "/analytics-consent")
                .then()
                .statusCode(200);
        read(account)
                .then()
                .statusCode(200)
                .header(CACHE, nullValue())
                .body("data.status", equalTo("available"))
                .body("data.reason", nullValue())
                .body("data.metrics.followers", equalTo(100))
                .body("data.metrics.posts", equalTo(0))
                .body("data.metrics.views", equalTo(0))
                .body("data.metrics.likes", nullValue());
    }

    @Test
    void aDisconnectedAccountHasNoNumbersAndItsCachedOnesAreGone() throws Exception {
        String account = sandbox("instagram");
        read(account).then().statusCode(200).body("data.status", equalTo("available"));
        assertThat(count("select count(*) from account_analytics where account_id = ?", account))
                .isEqualTo(1);

        as(workspace, Mode.TEST).delete("/accounts/" + account).then().statusCode(200);
        assertThat(count("select count(*) from account_analytics where account_id = ?", account))
                .isZero();
        read(account)
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.status", equalTo("unavailable"))
                .body("data.reason", equalTo("account_disconnected"))
                .body("data.metrics", nullValue());
    }

    @Test
    void anotherWorkspacesOrModesAccountIsNotFound() {
        String account = sandbox("linkedin");
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.TEST).get("/accounts/acc_nothing/analytics").then().statusCode(404);
    }

    @Test
    void theRefresherReadsConnectedAccountsIntoTheCacheButNeverAYoutubeOneWithoutConsent() throws Exception {
        String tiktok = sandbox("tiktok");
        String youtube = sandbox("youtube");
        createdAgo(tiktok, 1440);
        for (int pass = 0;
                pass < 50
                        && count(
                                        "select count(*) from account_analytics where account_id in (?, ?)"
                                                + " and next_refresh_at > now() + interval '5 minutes'",
                                        tiktok,
                                        youtube)
                                < 2;
                pass++) {
            // On a Vert.x context, as the job's own passes run (live accounts of other tests may be due too).
            onVertx(() -> refresher.refreshDue());
        }
        long s = seed(externalId(tiktok));
        assertThat(count("""
                select count(*) from account_analytics where account_id = ? and last_error is null
                  and cast(metrics ->> 'followers' as bigint) = ? and cast(metrics ->> 'posts' as bigint) = 1""", tiktok, 100 + 24 * (1 + s % 5))).isEqualTo(1);
        assertThat(count("""
                select count(*) from account_analytics where account_id = ? and metrics is null
                  and last_error = 'analytics_consent_required'""", youtube)).isEqualTo(1);

        read(tiktok)
                .then()
                .statusCode(200)
                .header(CACHE, equalTo("hit"))
                .body("data.metrics.followers", equalTo((int) (100 + 24 * (1 + s % 5))))
                .body("data.metrics.likes", equalTo((int) (1440 * (1 + s % 10) / 12)));
    }
}
