package dev.herald.accounts.service;

import static dev.herald.accounts.support.AccountsTestSupport.as;
import static dev.herald.accounts.support.AccountsTestSupport.count;
import static dev.herald.accounts.support.AccountsTestSupport.execute;
import static dev.herald.accounts.support.AccountsTestSupport.onVertx;
import static dev.herald.accounts.support.AccountsTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.accounts.provider.FakeLinkedInProvider;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.support.AccountsTestSupport;
import dev.herald.accounts.support.FakeServices;
import dev.herald.accounts.support.MovableClock;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Platform;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The health job against a live platform stand-in ({@link FakeLinkedInProvider}) and the sandbox steering: definitive
 * refusals break the account with the platform's reason and {@code account.reauth_required}; an access token ended
 * early is renewed; temporary failures back off without touching health; concurrent passes never check one account
 * twice; checks are booked ahead of each scheduled post. Time is the {@link MovableClock}: the job's passes are run
 * here, at the instants a test sets (the scheduler is off in tests).
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
class AccountHealthJobTest {
    @Inject
    AccountConnections connections;

    @Inject
    AccountHealthJob job;

    @Inject
    FakeLinkedInProvider linkedIn;

    @Inject
    MovableClock clock;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeServices.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    @AfterEach
    void platformAndTimeBehaveAgain() {
        linkedIn.checksPass();
        linkedIn.refreshFailure = null;
        linkedIn.keepTokens = false;
        clock.reset();
    }

    private String liveLinkedIn(String token, Instant expiresAt) {
        ProviderGrant grant = new ProviderGrant(
                token, "refresh-" + token, expiresAt, null, Set.of("w_member_social"), "member-" + token);
        return onVertx(() -> connections.connect(new AccountConnection(
                        workspace,
                        Mode.LIVE,
                        null,
                        Platform.LINKEDIN,
                        "urn:li:person:" + token,
                        "Mia Member",
                        "mia",
                        grant,
                        null)))
                .id();
    }

    private String live(String name) {
        return liveLinkedIn(name + "-" + workspace, Instant.now().plusSeconds(3600));
    }

    private static String externalId(String accountId) throws Exception {
        return text("select external_id from accounts where id = ?", accountId);
    }

    private static void dueNow(String accountId) throws Exception {
        execute("update accounts set next_check_at = now() - interval '1 second' where id = ?", accountId);
    }

    private static Instant nextCheckAt(String accountId) throws Exception {
        return Instant.ofEpochMilli(count(
                "select (extract(epoch from next_check_at) * 1000)::bigint from accounts where id = ?", accountId));
    }

    private static String health(String accountId) throws Exception {
        return text("select health_status from accounts where id = ?", accountId);
    }

    /** Runs passes until nothing is due (other tests' accounts may be due too, and a pass takes at most a batch). */
    private void drain() {
        for (int i = 0; i < 50; i++) {
            if (onVertx(() -> job.checkDue()) == 0) {
                return;
            }
        }
        throw new AssertionError("the health job never ran out of due accounts");
    }

    private static long events(String accountId, String type) throws Exception {
        return count("select count(*) from outbox where message_key = ? and payload->>'type' = ?", accountId, type);
    }

    @Test
    void aRevokedGrantTurnsTheAccountReauthRequiredWithThePlatformsReasonAndRecordsTheEvent() throws Exception {
        String account = live("revoked");
        linkedIn.checkFailure = new ProviderException(
                "token_revoked",
                "linkedin refused (HTTP 200): token_revoked - the access token is revoked",
                true,
                false);
        // The grant is gone whole: its refresh token is refused too, in other words.
        linkedIn.refreshFailure =
                new ProviderException("invalid_grant", "linkedin refused: invalid_grant", true, false);
        dueNow(account);

        drain();

        assertThat(health(account)).isEqualTo("reauth_required");
        assertThat(text("select health_reason from accounts where id = ?", account))
                .isEqualTo("linkedin refused (HTTP 200): token_revoked - the access token is revoked");
        assertThat(text("select next_check_at::text from accounts where id = ?", account))
                .isNull();
        assertThat(events(account, AccountEvent.REAUTH_REQUIRED)).isEqualTo(1);
        assertThat(text(
                        "select payload->>'reconnect_url' from outbox where message_key = ? and payload->>'type' = ?",
                        account,
                        AccountEvent.REAUTH_REQUIRED))
                .contains("/connect/reconnect/");
        // A broken account is not checked again: only a reconnection mends it.
        int checks = linkedIn.checksOf(externalId(account));
        drain();
        assertThat(linkedIn.checksOf(externalId(account))).isEqualTo(checks);
    }

    @Test
    void aWithdrawnPermissionTurnsTheAccountReauthRequiredWithoutARenewal() throws Exception {
        String account = live("stripped");
        linkedIn.checkFailure = new ProviderException(
                "permission_missing",
                "linkedin refused: permission_missing - the grant no longer includes w_member_social",
                true,
                false);
        int refreshes = linkedIn.refreshes.get();
        dueNow(account);

        drain();

        assertThat(health(account)).isEqualTo("reauth_required");
        assertThat(text("select health_reason from accounts where id = ?", account))
                .contains("permission_missing");
        assertThat(events(account, AccountEvent.REAUTH_REQUIRED)).isEqualTo(1);
        assertThat(linkedIn.refreshes.get()).isEqualTo(refreshes);
    }

    @Test
    void anAccessTokenThePlatformEndedEarlyIsRenewedAndTheAccountStaysHealthy() throws Exception {
        String token = "ended-" + workspace;
        String account = liveLinkedIn(token, Instant.now().plusSeconds(3600));
        linkedIn.refusedTokens.add(token);
        dueNow(account);

        drain();

        assertThat(health(account)).isEqualTo("healthy");
        assertThat(linkedIn.lastCheckedToken.get()).startsWith(token + "~r");
        assertThat(linkedIn.checksOf(externalId(account))).isEqualTo(2);
        assertThat(nextCheckAt(account)).isAfter(Instant.now());
        assertThat(events(account, AccountEvent.REAUTH_REQUIRED)).isZero();
    }

    @Test
    void aGrantNearItsEndIsRenewedBeforeItIsChecked() throws Exception {
        String token = "ending-" + workspace;
        // Within the job's renewal window (30 minutes), outside the publishers' (5 minutes).
        String account = liveLinkedIn(token, Instant.now().plus(Duration.ofMinutes(20)));
        int refreshes = linkedIn.refreshes.get();
        dueNow(account);

        drain();

        assertThat(linkedIn.refreshes.get()).isGreaterThan(refreshes);
        assertThat(linkedIn.lastCheckedToken.get()).startsWith(token + "~r");
        assertThat(linkedIn.checksOf(externalId(account))).isEqualTo(1);
        assertThat(health(account)).isEqualTo("healthy");
    }

    @Test
    void aRenewalThatRotatesTheRefreshTokenMovesTheEndOfAccessSoTheAccountIsNoLongerExpiring() throws Exception {
        String token = "rotating-" + workspace;
        ProviderGrant grant = new ProviderGrant(
                token,
                "refresh-" + token,
                Instant.now().plus(Duration.ofMinutes(20)),
                Instant.now().plus(Duration.ofDays(3)),
                Set.of("w_member_social"),
                "member-" + token);
        String account = onVertx(() -> connections.connect(new AccountConnection(
                        workspace,
                        Mode.LIVE,
                        null,
                        Platform.LINKEDIN,
                        "urn:li:person:" + token,
                        "Mia Member",
                        "mia",
                        grant,
                        null)))
                .id();
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account)
                .then()
                .statusCode(200)
                .body("data.health.status", equalTo("expiring"));
        dueNow(account);

        drain();

        as(workspace, Mode.LIVE)
                .get("/accounts/" + account)
                .then()
                .statusCode(200)
                .body("data.health.status", equalTo("healthy"));
        assertThat(count(
                        "select count(*) from accounts where id = ? and token_expires_at > now() + interval '300 days'",
                        account))
                .isEqualTo(1);
    }

    @Test
    void temporaryFailuresForTenMinutesLeaveHealthAloneAndBackOff() throws Exception {
        String account = liveLinkedIn("flaky-" + workspace, Instant.now().plus(Duration.ofDays(30)));
        Instant start = Instant.now();
        dueNow(account);
        List<Duration> waits = new ArrayList<>();
        Instant previous = start;
        clock.set(start);
        // 503s, then timeouts, for ten minutes of the job's time: each pass runs when the account is next due.
        while (clock.instant().isBefore(start.plus(Duration.ofMinutes(10)))) {
            linkedIn.checkFailure = waits.size() % 2 == 0
                    ? new ProviderException("http_503", "linkedin refused (HTTP 503): http_503", false, true)
                    : new ProviderException(
                            "provider_unreachable", "the provider did not answer: TimeoutException", false, true);
            drain();
            assertThat(health(account)).isEqualTo("healthy");
            Instant next = nextCheckAt(account);
            waits.add(Duration.between(previous, next));
            previous = next;
            // next_check_at has microseconds, read here as milliseconds: a millisecond later it is due.
            clock.set(next.plusMillis(1));
        }

        // 30 s, doubling (each pass runs a few milliseconds after the instant it was due).
        assertThat(waits).hasSize(5);
        for (int i = 0; i < waits.size(); i++) {
            assertThat(waits.get(i))
                    .as("wait %d of %s", i, waits)
                    .isBetween(Duration.ofSeconds(30L << i), Duration.ofSeconds((30L << i) + 5));
        }
        assertThat(count("select check_failures from accounts where id = ?", account))
                .isEqualTo(5);
        assertThat(events(account, AccountEvent.REAUTH_REQUIRED)).isZero();

        linkedIn.checksPass();
        drain();
        assertThat(count("select check_failures from accounts where id = ?", account))
                .isZero();
        assertThat(nextCheckAt(account)).isAfter(clock.instant().plus(Duration.ofHours(4)));
    }

    @Test
    void concurrentPassesNeverCheckOneAccountTwice() throws Exception {
        List<String> accounts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            // One workspace each: a workspace's slots are few.
            workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
            accounts.add(live("busy" + i));
        }
        for (String account : accounts) {
            dueNow(account);
        }
        linkedIn.checkDelayMillis = 100;

        // Four replicas' passes at once, each on its own thread and Vert.x context.
        ExecutorService replicas = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> passes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                passes.add(replicas.submit(() -> onVertx(() -> job.checkDue())));
            }
            for (Future<Integer> pass : passes) {
                pass.get(60, TimeUnit.SECONDS);
            }
        } finally {
            replicas.shutdown();
        }
        drain();

        for (String account : accounts) {
            assertThat(linkedIn.checksOf(externalId(account)))
                    .as("checks of %s", account)
                    .isEqualTo(1);
        }
    }

    @Test
    void aPassSkipsAccountsAnotherReplicaIsClaimingAndNeverTakesThemAfterIt() throws Exception {
        List<String> accounts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
            accounts.add(live("claimed" + i));
        }
        for (String account : accounts) {
            dueNow(account);
        }
        String ids = "'" + String.join("','", accounts) + "'";
        ExecutorService replica = Executors.newSingleThreadExecutor();
        try (Connection other = RealInfrastructure.connect(AccountsTestSupport.DATABASE)) {
            // Another replica is between its claim and its commit: the rows are locked, then leased.
            other.setAutoCommit(false);
            other.createStatement().execute("select id from accounts where id in (" + ids + ") for update");
            Future<Integer> pass = replica.submit(() -> onVertx(() -> job.checkDue()));
            Thread.sleep(1500);
            other.createStatement()
                    .executeUpdate("update accounts set next_check_at = now() + interval '5 minutes' where id in ("
                            + ids + ")");
            other.commit();
            pass.get(60, TimeUnit.SECONDS);
        } finally {
            replica.shutdown();
        }

        for (String account : accounts) {
            assertThat(linkedIn.checksOf(externalId(account)))
                    .as("checks of %s", account)
                    .isZero();
        }
    }

    @Test
    void everyScheduledPostGetsItsOwnCheckAheadOfIt() throws Exception {
        // A grant far from its end: nothing but the checks ahead of the posts falls due in these hours.
        String account = liveLinkedIn("scheduled-" + workspace, Instant.now().plus(Duration.ofDays(30)));
        String external = externalId(account);
        Instant tenOClock = Instant.now().plus(Duration.ofHours(1));
        Instant twoOClock = tenOClock.plus(Duration.ofHours(4));
        for (Instant scheduledAt : List.of(tenOClock, twoOClock, twoOClock)) {
            as(workspace, Mode.LIVE)
                    .body("{\"ids\":[\"" + account + "\"],\"scheduled_at\":\"" + scheduledAt + "\"}")
                    .post("/internal/accounts/lookup")
                    .then()
                    .statusCode(200)
                    .body("data[0].account.id", equalTo(account));
        }
        // Immediate posts and the second lookup of one post's time book nothing more.
        as(workspace, Mode.LIVE)
                .body("{\"ids\":[\"" + account + "\"]}")
                .post("/internal/accounts/lookup")
                .then()
                .statusCode(200);
        assertThat(count("select count(*) from account_due_checks where account_id = ?", account))
                .isEqualTo(2);

        clock.set(tenOClock.minus(Duration.ofMinutes(15)));
        drain();
        assertThat(linkedIn.checksOf(external)).isEqualTo(1);
        clock.set(twoOClock.minus(Duration.ofMinutes(16)));
        drain();
        assertThat(linkedIn.checksOf(external)).isEqualTo(1);
        clock.set(twoOClock.minus(Duration.ofMinutes(15)));
        drain();
        assertThat(linkedIn.checksOf(external)).isEqualTo(2);
        assertThat(count("select count(*) from account_due_checks where account_id = ?", account))
                .isZero();
    }

    @Test
    void testModeLookupsBookNoChecks() throws Exception {
        String account = as(workspace, Mode.TEST)
                .body("{\"platform\":\"linkedin\"}")
                .post("/accounts")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");

        as(workspace, Mode.TEST)
                .body("{\"ids\":[\"" + account + "\"],\"scheduled_at\":\""
                        + Instant.now().plusSeconds(7200) + "\"}")
                .post("/internal/accounts/lookup")
                .then()
                .statusCode(200);

        assertThat(count("select count(*) from account_due_checks where account_id = ?", account))
                .isZero();
    }

    @Test
    void aReauthSandboxAccountBreaksWithinAMinuteAndStaysHealthyOnceReauthorized() throws Exception {
        Instant connected = Instant.now();
        String account = as(workspace, Mode.TEST)
                .body("{\"platform\":\"linkedin\",\"username\":\"reauth_integrator\"}")
                .post("/accounts")
                .then()
                .statusCode(201)
                .body("data.health.status", equalTo("healthy"))
                .extract()
                .path("data.id");
        assertThat(Duration.between(connected, nextCheckAt(account))).isLessThan(Duration.ofSeconds(55));

        clock.set(nextCheckAt(account).plusMillis(1));
        drain();

        assertThat(health(account)).isEqualTo("reauth_required");
        assertThat(text("select health_reason from accounts where id = ?", account))
                .isEqualTo(AccountHealthChecks.SANDBOX_REAUTH_REASON);
        assertThat(events(account, AccountEvent.REAUTH_REQUIRED)).isEqualTo(1);

        // The integrator reconnects it (revision 2): healthy, and never steered again.
        String external = externalId(account);
        onVertx(() -> connections.connect(new AccountConnection(
                workspace, Mode.TEST, null, Platform.LINKEDIN, external, "Sandbox", "reauth_integrator", null, null)));
        assertThat(count("select authorization_revision from accounts where id = ?", account))
                .isEqualTo(2);
        clock.advance(Duration.ofMinutes(5));
        drain();
        assertThat(health(account)).isEqualTo("healthy");
        assertThat(events(account, AccountEvent.RECONNECTED)).isEqualTo(1);
        as(workspace, Mode.TEST)
                .post("/accounts/" + account + "/health-check")
                .then()
                .statusCode(200)
                .body("data.health.status", equalTo("healthy"));
    }

    @Test
    void anOnDemandCheckAnswersTheFreshHealthAndA502WhenThePlatformCannotBeAsked() throws Exception {
        String account = live("ondemand");

        as(workspace, Mode.LIVE)
                .post("/accounts/" + account + "/health-check")
                .then()
                .statusCode(200)
                .body("data.id", equalTo(account))
                .body("data.health.status", equalTo("healthy"));

        linkedIn.checkFailure = new ProviderException("http_503", "linkedin refused (HTTP 503): http_503", false, true);
        as(workspace, Mode.LIVE)
                .post("/accounts/" + account + "/health-check")
                .then()
                .statusCode(502)
                .body("error.code", equalTo("provider_error"))
                .body("error.details.retryable", equalTo(true))
                .body("error.details.provider_code", equalTo("http_503"));
        assertThat(health(account)).isEqualTo("healthy");

        linkedIn.checkFailure = new ProviderException(
                "token_revoked",
                "linkedin refused (HTTP 200): token_revoked - the access token is revoked",
                true,
                false);
        linkedIn.refreshFailure =
                new ProviderException("invalid_grant", "linkedin refused: invalid_grant", true, false);
        as(workspace, Mode.LIVE)
                .post("/accounts/" + account + "/health-check")
                .then()
                .statusCode(200)
                .body("data.health.status", equalTo("reauth_required"))
                .body(
                        "data.health.reason",
                        equalTo("linkedin refused (HTTP 200): token_revoked - the access token is revoked"));

        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.LIVE)
                .post("/accounts/" + account + "/health-check")
                .then()
                .statusCode(404);
    }
}
