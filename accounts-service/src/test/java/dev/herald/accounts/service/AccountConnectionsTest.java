package dev.herald.accounts.service;

import static dev.herald.accounts.support.AccountsTestSupport.as;
import static dev.herald.accounts.support.AccountsTestSupport.count;
import static dev.herald.accounts.support.AccountsTestSupport.onVertx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.accounts.credentials.GrantEncryption;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.repository.ProviderCredentialRepository;
import dev.herald.accounts.support.AccountsTestSupport;
import dev.herald.accounts.support.FakeProviders;
import dev.herald.accounts.support.FakeServices;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.Platform;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
class AccountConnectionsTest {
    @Inject
    AccountConnections connections;

    @Inject
    FakeProviders.YouTube youtube;

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

    private static ProviderGrant grant(String accessToken) {
        return new ProviderGrant(
                accessToken,
                "refresh-" + accessToken,
                Instant.now().plusSeconds(3600),
                null,
                Set.of("youtube.upload"),
                "google-subject");
    }

    private Account connectLive(Platform platform, String externalId, String accessToken) {
        return connectLive(platform, externalId, grant(accessToken));
    }

    private ApiException refusedLive(Platform platform, String externalId) {
        return catchThrowableOfType(ApiException.class, () -> connectLive(platform, externalId, "token-" + externalId));
    }

    @Test
    void aFreePlanConnectsTwoLiveAccountsAndRefusesTheThird() {
        connectLive(Platform.TIKTOK, "creator-1", "t1");
        connectLive(Platform.FACEBOOK, "page-1", "t2");
        ApiException refused = refusedLive(Platform.INSTAGRAM, "ig-1");
        assertThat(refused.code()).isEqualTo(ErrorCode.ACCOUNT_LIMIT_REACHED);
        assertThat(refused.details())
                .containsEntry("mode", "live")
                .containsEntry("plan", "free")
                .containsEntry("limit", 2)
                .containsEntry("connected", 2);
        as(workspace, Mode.LIVE).get("/accounts").then().statusCode(200).body("data.size()", equalTo(2));
    }

    @Test
    void reauthorizingAConnectedAccountIsFreeAndStartsANewAuthorizationRevision() {
        Account first = connectLive(Platform.YOUTUBE, "channel-1", "old-token");
        assertThat(first.analyticsConsent().authorizationRevision()).isEqualTo(1);
        as(workspace, Mode.LIVE)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\"}")
                .post("/accounts/" + first.id() + "/analytics-consent")
                .then()
                .statusCode(200);

        Account again = connectLive(Platform.YOUTUBE, "channel-1", "new-token");
        assertThat(again.id()).isEqualTo(first.id());
        assertThat(again.status()).isEqualTo(Account.CONNECTED);
        // Consent is never carried over to a new authorization.
        assertThat(again.analyticsConsent().authorizationRevision()).isEqualTo(2);
        assertThat(again.analyticsConsent().status()).isEqualTo(Account.AnalyticsConsent.REQUIRED);
        assertThat(again.analyticsConsent().acceptedAt()).isNull();
        assertThat(FakeServices.newConnections(workspace)).isEqualTo(1);
        assertThat(FakeServices.connected(workspace, "live")).containsExactly(first.id());
    }

    private Account connectLive(Platform platform, String externalId, ProviderGrant grant) {
        return onVertx(() -> connections.connect(new AccountConnection(
                workspace,
                Mode.LIVE,
                null,
                platform,
                externalId,
                "Channel " + externalId,
                "@" + externalId,
                grant,
                "cs_000000000000000000000001")));
    }

    private ProviderGrant storedGrant(String accountId) {
        return grants.open(onVertx(() -> Panache.withSession(() -> credentials.find(accountId))), accountId);
    }

    @Test
    void reauthorizingWithoutARefreshTokenKeepsTheStoredOneAndItsEnd() {
        Instant refreshEnd = Instant.now().plus(Duration.ofDays(180)).truncatedTo(ChronoUnit.SECONDS);
        Account first = connectLive(
                Platform.YOUTUBE,
                "channel-keep",
                new ProviderGrant(
                        "first-access",
                        "first-refresh",
                        Instant.now().plusSeconds(3600),
                        refreshEnd,
                        Set.of("youtube.upload"),
                        "google-subject"));

        // Google issues a refresh token only at the first consent: a reconnection's grant may come without one.
        Account again = connectLive(
                Platform.YOUTUBE,
                "channel-keep",
                new ProviderGrant(
                        "second-access",
                        null,
                        Instant.now().plusSeconds(3600),
                        null,
                        Set.of("youtube.upload"),
                        "google-subject"));

        assertThat(again.id()).isEqualTo(first.id());
        ProviderGrant stored = storedGrant(first.id());
        assertThat(stored.accessToken()).isEqualTo("second-access");
        assertThat(stored.refreshToken()).isEqualTo("first-refresh");
        assertThat(stored.refreshExpiresAt()).isEqualTo(refreshEnd);
        // Health follows the grant kept: access ends with the kept refresh token, not with the hour-long token.
        assertThat(again.health().tokenExpiresAt()).isEqualTo(refreshEnd);

        // A grant that brings its own refresh token replaces the stored one.
        connectLive(
                Platform.YOUTUBE,
                "channel-keep",
                new ProviderGrant(
                        "third-access",
                        "third-refresh",
                        Instant.now().plusSeconds(3600),
                        null,
                        Set.of("youtube.upload"),
                        "google-subject"));
        assertThat(storedGrant(first.id()).refreshToken()).isEqualTo("third-refresh");
    }

    @Test
    void theFifthNewConnectionOfTheMonthIsRefusedAndDisconnectedToConnectedCounts() throws Exception {
        Account a = connectLive(Platform.TIKTOK, "a", "ta");
        as(workspace, Mode.LIVE).delete("/accounts/" + a.id()).then().statusCode(200);
        Account back = connectLive(Platform.TIKTOK, "a", "ta2");
        assertThat(back.id()).isEqualTo(a.id());
        assertThat(back.connectedAt()).isAfter(a.connectedAt());
        assertThat(FakeServices.newConnections(workspace)).isEqualTo(2);
        as(workspace, Mode.LIVE).delete("/accounts/" + a.id()).then().statusCode(200);
        connectLive(Platform.TIKTOK, "b", "tb");
        Account c = connectLive(Platform.TIKTOK, "c", "tc");
        as(workspace, Mode.LIVE).delete("/accounts/" + c.id()).then().statusCode(200);

        ApiException refused = refusedLive(Platform.TIKTOK, "a");
        assertThat(refused.code()).isEqualTo(ErrorCode.USAGE_LIMIT_EXCEEDED);
        assertThat(refused.details())
                .containsEntry("metric", "new_connections")
                .containsEntry("limit", 4)
                .containsEntry("reset_at", "2026-12-01T00:00:00Z");
        assertThat(refused.headers()).containsEntry("Retry-After", "777");
        as(workspace, Mode.LIVE).get("/accounts/" + a.id()).then().body("data.status", equalTo("disconnected"));
        assertThat(FakeServices.connected(workspace, "live")).hasSize(1);
    }

    @Test
    void providerGrantsAreStoredEncrypted() throws Exception {
        Account account = connectLive(Platform.LINKEDIN, "member-1", "very-secret-access-token");
        byte[] stored = storedCredential(account.id());
        assertThat(stored).isNotNull();
        assertThat(new String(stored, StandardCharsets.ISO_8859_1))
                .doesNotContain("very-secret")
                .doesNotContain("refresh-");
        // Disconnecting deletes the credential of a non-YouTube account outright (nothing to revoke).
        as(workspace, Mode.LIVE).delete("/accounts/" + account.id()).then().statusCode(200);
        assertThat(count("select count(*) from provider_credentials where account_id = ?", account.id()))
                .isZero();
        assertThat(count("select count(*) from provider_revocations where account_id = ?", account.id()))
                .isZero();
    }

    @Test
    void disconnectingYouTubeRevokesTheGrantRetryingAndBlocksReconnectionUntilDone() throws Exception {
        Account account = connectLive(Platform.YOUTUBE, "channel-r", "yt-access-" + workspace);
        youtube.failuresLeft.set(1);
        as(workspace, Mode.LIVE)
                .delete("/accounts/" + account.id())
                .then()
                .statusCode(200)
                .body("data.status", equalTo("disconnected"));
        assertThat(count("select count(*) from provider_credentials where account_id = ?", account.id()))
                .isZero();
        assertThat(count("select count(*) from provider_revocations where account_id = ?", account.id()))
                .isEqualTo(1);

        ApiException blocked = refusedLive(Platform.YOUTUBE, "channel-r");
        assertThat(blocked.code()).isEqualTo(ErrorCode.CONFLICT);
        assertThat(blocked.details()).containsEntry("reason", "revocation_pending");

        // The scheduled job's first attempt fails (retryably), a later one revokes and the encrypted grant is gone.
        Instant deadline = Instant.now().plusSeconds(30);
        while (count("select count(*) from provider_revocations where account_id = ?", account.id()) > 0
                && Instant.now().isBefore(deadline)) {
            Thread.sleep(300);
        }
        assertThat(count("select count(*) from provider_revocations where account_id = ?", account.id()))
                .isZero();
        assertThat(youtube.revokedAccessTokens).contains("yt-access-" + workspace);

        Account back = connectLive(Platform.YOUTUBE, "channel-r", "yt-access-2");
        assertThat(back.id()).isEqualTo(account.id());
        assertThat(back.analyticsConsent().authorizationRevision()).isEqualTo(2);
    }

    @Test
    void aConnectionForAProfileHoldsItAndAnUnknownProfileChargesNothing() {
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        FakeServices.addProfile(workspace, "live", profile);
        Account account = onVertx(() -> connections.connect(new AccountConnection(
                workspace, Mode.LIVE, profile, Platform.FACEBOOK, "page-p", "Page", "page", grant("tp"), null)));
        assertThat(account.profileId()).isEqualTo(profile);
        assertThat(FakeServices.holders(profile)).containsExactly(account.id());

        ApiException refused = catchThrowableOfType(
                ApiException.class,
                () -> onVertx(() -> connections.connect(new AccountConnection(
                        workspace,
                        Mode.LIVE,
                        ResourceIds.newId(IdPrefix.PROFILE),
                        Platform.FACEBOOK,
                        "page-q",
                        "Page",
                        "page",
                        grant("tq"),
                        null))));
        assertThat(refused.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
        assertThat(FakeServices.connected(workspace, "live")).containsExactly(account.id());
        assertThat(FakeServices.newConnections(workspace)).isEqualTo(1);
    }

    private static byte[] storedCredential(String accountId) throws Exception {
        try (Connection connection = RealInfrastructure.connect(AccountsTestSupport.DATABASE);
                PreparedStatement statement = connection.prepareStatement(
                        "select ciphertext from provider_credentials where account_id = ?")) {
            statement.setString(1, accountId);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getBytes(1) : null;
            }
        }
    }
}
