package dev.herald.accounts.rest;

import static dev.herald.accounts.support.AccountsTestSupport.as;
import static dev.herald.accounts.support.AccountsTestSupport.count;
import static dev.herald.accounts.support.AccountsTestSupport.execute;
import static dev.herald.accounts.support.AccountsTestSupport.onVertx;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import dev.herald.accounts.credentials.GrantEncryption;
import dev.herald.accounts.provider.FakeLinkedInProvider;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.http.ProviderErrors;
import dev.herald.accounts.repository.ProviderCredentialRepository;
import dev.herald.accounts.service.AccountConnection;
import dev.herald.accounts.service.AccountConnections;
import dev.herald.accounts.service.ProviderAccessTokens;
import dev.herald.accounts.support.FakeServices;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Platform;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code POST /internal/accounts/{id}/access-token}: a usable token for a live account's publisher. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ProviderAccessTokenTest {
    @Inject
    AccountConnections connections;

    @Inject
    FakeLinkedInProvider linkedIn;

    @Inject
    ProviderCredentialRepository credentials;

    @Inject
    GrantEncryption grants;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeServices.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    @AfterEach
    void providerBehavesAgain() {
        linkedIn.refreshFailure = null;
        linkedIn.refreshDelayMillis = 0;
        linkedIn.keepTokens = false;
    }

    private String liveLinkedIn(String accessToken, Instant expiresAt) {
        ProviderGrant grant = new ProviderGrant(
                accessToken,
                "refresh-" + accessToken,
                expiresAt,
                null,
                Set.of("w_member_social"),
                "member-" + accessToken);
        return onVertx(() -> connections.connect(new AccountConnection(
                        workspace,
                        Mode.LIVE,
                        null,
                        Platform.LINKEDIN,
                        "urn:li:person:" + accessToken,
                        "Mia Member",
                        "mia",
                        grant,
                        null)))
                .id();
    }

    private Response accessToken(String accountId, String body) {
        return as(workspace, Mode.LIVE).body(body).post("/internal/accounts/" + accountId + "/access-token");
    }

    private static String rejecting(String token) {
        return "{\"rejected_token_sha256\":\"" + ProviderAccessTokens.sha256(token) + "\"}";
    }

    @Test
    void anUnexpiredTokenIsHandedOutAsStoredWithoutAskingTheProvider() {
        String token = "li-fresh-" + workspace;
        Instant expiresAt = Instant.now().plusSeconds(3600);
        String account = liveLinkedIn(token, expiresAt);
        int before = linkedIn.refreshes.get();

        accessToken(account, "{}")
                .then()
                .statusCode(200)
                .body("data.account_id", equalTo(account))
                .body("data.platform", equalTo("linkedin"))
                .body("data.external_id", equalTo("urn:li:person:" + token))
                .body("data.access_token", equalTo(token))
                .body("data.expires_at", notNullValue());
        assertThat(linkedIn.refreshes.get()).isEqualTo(before);
    }

    @Test
    void aTokenAboutToExpireIsRefreshedOnceAndTheNewGrantKept() throws Exception {
        String token = "li-expiring-" + workspace;
        String account = liveLinkedIn(token, Instant.now().plusSeconds(120));
        int before = linkedIn.refreshes.get();

        String fresh =
                accessToken(account, "{}").then().statusCode(200).extract().path("data.access_token");
        assertThat(fresh).isEqualTo(token + "~r" + (before + 1));
        // Stored, sealed: the next call answers it as it is, and the database never holds it in clear.
        accessToken(account, "{}").then().statusCode(200).body("data.access_token", equalTo(fresh));
        assertThat(linkedIn.refreshes.get()).isEqualTo(before + 1);
        assertThat(count(
                        "select count(*) from provider_credentials where account_id = ? and position(? in convert_from(ciphertext, 'UTF8')) > 0",
                        account,
                        fresh))
                .isZero();
    }

    @Test
    void aRefusedTokenIsReplacedOnceAndCallersWithTheOldOneGetTheReplacement() {
        String token = "li-refused-" + workspace;
        String account = liveLinkedIn(token, Instant.now().plusSeconds(3600));
        int before = linkedIn.refreshes.get();

        String replacement = accessToken(account, rejecting(token))
                .then()
                .statusCode(200)
                .extract()
                .path("data.access_token");
        assertThat(replacement).isNotEqualTo(token);
        assertThat(linkedIn.refreshes.get()).isEqualTo(before + 1);

        // A second delivery that was refused the same old token: it has been replaced already, so no refresh.
        accessToken(account, rejecting(token)).then().statusCode(200).body("data.access_token", equalTo(replacement));
        assertThat(linkedIn.refreshes.get()).isEqualTo(before + 1);
    }

    @Test
    void concurrentCallersRefusedTheSameTokenCauseOneRefresh() throws Exception {
        String token = "li-race-" + workspace;
        String account = liveLinkedIn(token, Instant.now().plusSeconds(3600));
        linkedIn.refreshDelayMillis = 300;
        int before = linkedIn.refreshes.get();

        ExecutorService callers = Executors.newFixedThreadPool(6);
        try {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                answers.add(callers.submit(() -> accessToken(account, rejecting(token))
                        .then()
                        .statusCode(200)
                        .extract()
                        .<String>path("data.access_token")));
            }
            Set<String> tokens = new java.util.HashSet<>();
            for (Future<String> answer : answers) {
                tokens.add(answer.get());
            }
            assertThat(tokens).hasSize(1).doesNotContain(token);
        } finally {
            callers.shutdownNow();
        }
        assertThat(linkedIn.refreshes.get()).isEqualTo(before + 1);
    }

    private ProviderGrant storedGrant(String accountId) {
        byte[] sealed = onVertx(() -> Panache.withSession(() -> credentials.find(accountId)));
        return grants.open(sealed, accountId);
    }

    @Test
    void aGrantRefusedForGoodMakesTheAccountReauthRequiredKeepsItConnectedAndDropsItsRefreshToken() throws Exception {
        String token = "li-revoked-" + workspace;
        String account = liveLinkedIn(token, Instant.now().plusSeconds(60));
        linkedIn.refreshFailure = ProviderErrors.exception(
                Platform.LINKEDIN, "invalid_grant", "Token has been expired or revoked.", 400, true, false);

        accessToken(account, "{}")
                .then()
                .statusCode(409)
                .body("error.code", equalTo("conflict"))
                .body("error.details.account_id", equalTo(account))
                .body("error.details.reason", equalTo("account_reauth_required"))
                .body("error.details.reconnect_url", containsString("/connect/reconnect/"));
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("connected"))
                .body("data.health.status", equalTo("reauth_required"))
                .body("data.health.reason", equalTo("invalid_grant: Token has been expired or revoked."));
        // The grant stays (the account keeps its slot), but its dead refresh token can never be sent again.
        ProviderGrant kept = storedGrant(account);
        assertThat(kept.accessToken()).isEqualTo(token);
        assertThat(kept.refreshToken()).isNull();
        assertThat(count(
                        "select count(*) from outbox where message_key = ? and payload->>'type' = 'account.reauth_required'",
                        account))
                .isEqualTo(1);
    }

    @Test
    void aReauthRequiredAccountIsRefusedWithItsLinkWithoutAskingTheProvider() {
        String account = liveLinkedIn("li-broken-" + workspace, Instant.now().plusSeconds(60));
        linkedIn.refreshFailure = new ProviderException("invalid_grant", "revoked", true, false);
        accessToken(account, "{}").then().statusCode(409);
        int before = linkedIn.refreshes.get();
        linkedIn.refreshFailure = null;

        accessToken(account, "{}")
                .then()
                .statusCode(409)
                .body("error.details.reason", equalTo("account_reauth_required"))
                .body("error.details.reconnect_url", containsString("/connect/reconnect/"));
        accessToken(account, rejecting("anything")).then().statusCode(409);
        assertThat(linkedIn.refreshes.get()).isEqualTo(before);
    }

    @Test
    void aRefusedTokenTheProviderCannotReplaceMakesTheAccountReauthRequired() {
        String token = "li-no-refresh-" + workspace;
        String account = liveLinkedIn(token, Instant.now().plusSeconds(3600));
        // LinkedIn outside its partner programme issues no refresh token: "refreshing" keeps the unexpired token.
        linkedIn.refreshFailure = null;
        linkedIn.keepTokens = true;
        try {
            accessToken(account, rejecting(token))
                    .then()
                    .statusCode(409)
                    .body("error.details.reason", equalTo("account_reauth_required"));
        } finally {
            linkedIn.keepTokens = false;
        }
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("connected"))
                .body("data.health.status", equalTo("reauth_required"))
                .body("data.health.reason", startsWith("token_refused: "));
    }

    @Test
    void aRefreshRecordsTheNewGrantsEndAndTheCheck() throws Exception {
        String account = liveLinkedIn("li-renewed-" + workspace, Instant.now().plusSeconds(60));
        // As if the account had been connected with an access token ending in an hour and no refresh token.
        execute(
                "update accounts set token_expires_at = now() + interval '1 hour', health_checked_at = now() - interval '1 day'"
                        + " where id = ?",
                account);

        accessToken(account, "{}").then().statusCode(200);

        // The fake's renewed grant has a refresh token with no end: nothing ends the access, so no expiry.
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account)
                .then()
                .statusCode(200)
                .body("data.health.status", equalTo("healthy"))
                .body("data.health.token_expires_at", nullValue());
        assertThat(count(
                        "select count(*) from accounts where id = ? and health_checked_at > now() - interval '1 minute'",
                        account))
                .isEqualTo(1);
    }

    @Test
    void aProviderThatCannotRefreshNowIsARetryableProviderErrorAndChangesNothing() {
        String token = "li-down-" + workspace;
        String account = liveLinkedIn(token, Instant.now().plusSeconds(60));
        linkedIn.refreshFailure = new ProviderException("server_error", "LinkedIn is having a bad day", false, true);

        accessToken(account, "{}")
                .then()
                .statusCode(502)
                .body("error.code", equalTo("provider_error"))
                .body("error.details.account_id", equalTo(account))
                .body("error.details.provider_code", equalTo("server_error"))
                .body("error.details.retryable", equalTo(true));
        as(workspace, Mode.LIVE)
                .get("/accounts/" + account)
                .then()
                .statusCode(200)
                .body("data.status", equalTo("connected"))
                .body("data.health.status", equalTo("healthy"));

        linkedIn.refreshFailure = null;
        accessToken(account, "{}")
                .then()
                .statusCode(200)
                .body("data.access_token", org.hamcrest.Matchers.startsWith(token + "~r"));
    }

    @Test
    void onlyTheCallersLiveAccountsHaveAccess() {
        String account = liveLinkedIn("li-tenant-" + workspace, Instant.now().plusSeconds(3600));
        String otherWorkspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        as(otherWorkspace, Mode.LIVE)
                .body("{}")
                .post("/internal/accounts/" + account + "/access-token")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.TEST)
                .body("{}")
                .post("/internal/accounts/" + account + "/access-token")
                .then()
                .statusCode(404);
        as(workspace, Mode.LIVE)
                .body("{}")
                .post("/internal/accounts/acc_nope/access-token")
                .then()
                .statusCode(404);

        String sandbox = as(workspace, Mode.TEST)
                .body("{\"platform\":\"linkedin\",\"name\":\"Creator\",\"username\":\"creator.one\"}")
                .post("/accounts")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
        as(workspace, Mode.TEST)
                .body("{}")
                .post("/internal/accounts/" + sandbox + "/access-token")
                .then()
                .statusCode(409)
                .body("error.details.reason", equalTo("sandbox_account"));

        given().contentType("application/json")
                .body("{}")
                .post("/internal/accounts/" + account + "/access-token")
                .then()
                .statusCode(401)
                .body("error.code", equalTo("authentication_failed"));
    }

    @Test
    void badBodiesAreRefusedFieldByField() {
        String account = liveLinkedIn("li-body-" + workspace, Instant.now().plusSeconds(3600));
        accessToken(account, "{\"rejected_token_sha256\":\"not-hex\",\"token\":\"x\"}")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body(
                        "error.details.errors.field",
                        org.hamcrest.Matchers.containsInAnyOrder("rejected_token_sha256", "token"));
        accessToken(account, "[]").then().statusCode(400).body("error.code", equalTo("invalid_request"));
    }
}
