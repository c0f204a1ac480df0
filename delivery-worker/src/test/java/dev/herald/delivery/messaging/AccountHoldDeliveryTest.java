package dev.herald.delivery.messaging;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.delivery.support.DeliveryTestSupport.accepted;
import static dev.herald.delivery.support.DeliveryTestSupport.accountEvent;
import static dev.herald.delivery.support.DeliveryTestSupport.await;
import static dev.herald.delivery.support.DeliveryTestSupport.completions;
import static dev.herald.delivery.support.DeliveryTestSupport.delivery;
import static dev.herald.delivery.support.DeliveryTestSupport.onlyCompletion;
import static dev.herald.delivery.support.DeliveryTestSupport.onlyCompletions;
import static dev.herald.delivery.support.DeliveryTestSupport.rows;
import static dev.herald.delivery.support.DeliveryTestSupport.sandboxPublications;
import static dev.herald.delivery.support.DeliveryTestSupport.scheduled;
import static dev.herald.delivery.support.DeliveryTestSupport.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import dev.herald.delivery.support.DeliveryTestSupport.Target;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.FakeUsageService;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Targets of accounts that need re-authorization (issue 32), through the real broker and database: account.events
 * hold an account's deliveries (queued, no attempt, no usage check; one target.completed saying queued) until account.reconnected
 * makes them due, or until the hold deadline fails them with account_reauth_required; a live account that
 * accounts-service refuses with account_reauth_required is held the same way before any event says so.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
class AccountHoldDeliveryTest {
    private static final String RECONNECT_URL = "https://herald.example/connect/reconnect/tok_123";

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @BeforeEach
    void startFakes() {
        FakeUsageService.ensureStarted();
    }

    @Test
    void aTargetOfAnAccountThatNeedsReauthorizationWaitsAndIsPublishedOnceTheAccountIsReconnected() throws Exception {
        Target target = Target.of(Platform.LINKEDIN, "reauth_acme");
        holdAccount(Mode.TEST, target);
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, target);
        String postId = event.post().id();

        send(event);

        awaitHeld(postId);
        Map<String, Object> held = delivery(postId, target.accountId());
        assertThat(held).containsEntry("attempts", 0).containsEntry("completed_at", null);
        // Held before the reservation check: neither usage-service nor the platform was asked.
        assertThat(FakeUsageService.calls(target.reservationId(postId))).isEmpty();
        assertThat(sandboxPublications(postId, target.accountId())).isEmpty();
        JsonNode waiting = completions(postId, 1).get(0);
        assertThat(waiting.get("status").asText())
                .as("the target shows as waiting")
                .isEqualTo("queued");
        assertThat(waiting.get("attempts").asInt()).isZero();
        assertThat(waiting.get("completed_at").isNull()).isTrue();
        assertThat(waiting.get("error").get("code").asText()).isEqualTo("account_reauth_required");
        assertThat(waiting.get("error").get("details").get("reconnect_url").asText())
                .isEqualTo(RECONNECT_URL);

        send(accountEvent(workspace, Mode.TEST, target, AccountEvent.RECONNECTED, AccountHealth.HEALTHY, null));

        List<JsonNode> completions = onlyCompletions(postId, target.accountId(), 2);
        assertThat(completions)
                .extracting(completion -> completion.get("status").asText())
                .containsExactly("queued", "published");
        JsonNode completed = completions.get(1);
        assertThat(completed.get("attempts").asInt()).isEqualTo(1);
        assertThat(rows("select 1 from held_accounts where account_id = ?", target.accountId()))
                .isEmpty();
    }

    @Test
    void aTargetStillHeldAtItsDeadlineFailsWithAccountReauthRequiredAndTheReconnectLink() throws Exception {
        Target target = Target.of(Platform.TIKTOK, "reauth_late");
        holdAccount(Mode.TEST, target);
        // Due 25 hours ago: past the default 24-hour hold the moment it is looked at.
        PostAcceptedEvent event =
                scheduled(accepted(workspace, Mode.TEST, target), Instant.now().minus(Duration.ofHours(25)));
        String postId = event.post().id();

        send(event);

        JsonNode completed = onlyCompletion(postId, target.accountId());
        assertThat(completed.get("status").asText()).isEqualTo("failed");
        assertThat(completed.get("attempts").asInt()).isZero();
        JsonNode error = completed.get("error");
        assertThat(error.get("code").asText()).isEqualTo("account_reauth_required");
        assertThat(error.get("retryable").asBoolean()).isFalse();
        assertThat(error.get("details").get("account_id").asText()).isEqualTo(target.accountId());
        assertThat(error.get("details").get("reconnect_url").asText()).isEqualTo(RECONNECT_URL);
        assertThat(completed.get("reservation_id").asText()).isEqualTo(target.reservationId(postId));
        assertThat(sandboxPublications(postId, target.accountId())).isEmpty();
        assertThat(FakeUsageService.calls(target.reservationId(postId))).isEmpty();
    }

    @Test
    void aLiveAccountThatAccountsServiceRefusesForReauthorizationIsHeldWithoutSpendingAnAttempt() throws Exception {
        Target target = Target.of(Platform.LINKEDIN, "acme_live_reauth");
        PostAcceptedEvent event = accepted(workspace, Mode.LIVE, "Live while the grant is refused", null, target);
        String postId = event.post().id();
        String accessPath = "/internal/accounts/" + target.accountId() + "/access-token";
        var fake = FakePlatformApis.client();
        fake.register(post(urlPathEqualTo(accessPath)).willReturn(reauthRefusal(target)));
        fake.register(post(urlPathEqualTo("/rest/posts"))
                .willReturn(
                        aResponse().withStatus(201).withHeader("x-restli-id", "urn:li:share:" + postId.substring(4))));

        send(event);

        awaitHeld(postId);
        Map<String, Object> held = delivery(postId, target.accountId());
        // The attempt counted before accounts-service was asked is given back; LinkedIn was never called.
        assertThat(held).containsEntry("attempts", 0).containsEntry("completed_at", null);
        assertThat(held.get("last_error").toString()).contains("account_reauth_required", RECONNECT_URL);

        fake.register(post(urlPathEqualTo(accessPath)).willReturn(linkedInAccess(target, "li-live-token")));
        // The refusal came before any event: the reconnection event still finds the held delivery.
        send(accountEvent(workspace, Mode.LIVE, target, AccountEvent.RECONNECTED, AccountHealth.HEALTHY, null));

        List<JsonNode> completions = onlyCompletions(postId, target.accountId(), 2);
        assertThat(completions)
                .extracting(completion -> completion.get("status").asText())
                .containsExactly("queued", "published");
        JsonNode completed = completions.get(1);
        assertThat(completed.get("attempts").asInt()).isEqualTo(1);
        assertThat(fake.find(postRequestedFor(urlPathEqualTo("/rest/posts"))
                        .withRequestBody(matchingJsonPath(
                                "$.commentary", equalTo(event.post().text())))))
                .hasSize(1);
    }

    /**
     * LinkedIn refuses the token of the create call and accounts-service cannot renew it (the grant is gone): nothing
     * was created, so the ledger records the refusal and, once the account is reconnected, the held target is created
     * (not looked for, which LinkedIn cannot answer for a member's posts) and published once.
     */
    @Test
    void aCreateCallWhoseTokenTheGrantCannotReplaceIsHeldAndCreatedOnceAfterTheReconnection() throws Exception {
        Target target = Target.of(Platform.LINKEDIN, "acme_revoked_at_create");
        PostAcceptedEvent event = accepted(workspace, Mode.LIVE, "Created after the reconnection", null, target);
        String postId = event.post().id();
        String accessPath = "/internal/accounts/" + target.accountId() + "/access-token";
        var fake = FakePlatformApis.client();
        fake.register(
                post(urlPathEqualTo(accessPath)).atPriority(5).willReturn(linkedInAccess(target, "li-revoked-token")));
        fake.register(post(urlPathEqualTo(accessPath))
                .atPriority(1)
                .withRequestBody(matchingJsonPath("$.rejected_token_sha256"))
                .willReturn(reauthRefusal(target)));
        fake.register(post(urlPathEqualTo("/rest/posts"))
                .withHeader("Authorization", equalTo("Bearer li-revoked-token"))
                .willReturn(aResponse()
                        .withStatus(401)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"status\":401,\"serviceErrorCode\":65601,\"code\":\"REVOKED_ACCESS_TOKEN\"}")));

        send(event);

        awaitHeld(postId);
        assertThat(rows("select state from provider_publications where token = ?", postId + ":" + target.accountId()))
                .as("the refused call is written down as refused, not as a call of unknown outcome")
                .containsExactly(Map.of("state", "refused"));

        fake.register(
                post(urlPathEqualTo(accessPath)).atPriority(0).willReturn(linkedInAccess(target, "li-fresh-token")));
        fake.register(post(urlPathEqualTo("/rest/posts"))
                .withHeader("Authorization", equalTo("Bearer li-fresh-token"))
                .willReturn(
                        aResponse().withStatus(201).withHeader("x-restli-id", "urn:li:share:" + postId.substring(4))));
        send(accountEvent(workspace, Mode.LIVE, target, AccountEvent.RECONNECTED, AccountHealth.HEALTHY, null));

        List<JsonNode> completions = onlyCompletions(postId, target.accountId(), 2);
        assertThat(completions)
                .extracting(completion -> completion.get("status").asText())
                .containsExactly("queued", "published");
        assertThat(fake.find(postRequestedFor(urlPathEqualTo("/rest/posts"))
                        .withHeader("Authorization", equalTo("Bearer li-fresh-token"))))
                .hasSize(1);
    }

    /** accounts-service's access answer for the LinkedIn member, with {@code token}. */
    private static ResponseDefinitionBuilder linkedInAccess(Target target, String token) {
        return okJson("""
                {"data":{"account_id":"%s","platform":"linkedin","external_id":"urn:li:person:782bbtaQ",
                 "access_token":"%s","expires_at":null}}""".formatted(target.accountId(), token));
    }

    /** accounts-service's refusal of an account that needs re-authorization, with its reconnect link. */
    private static ResponseDefinitionBuilder reauthRefusal(Target target) {
        return aResponse()
                .withStatus(409)
                .withHeader("Content-Type", "application/json")
                .withBody("""
                        {"error":{"code":"conflict","message":"The account needs to be reconnected.",
                         "details":{"reason":"account_reauth_required","account_id":"%s","reconnect_url":"%s"}}}""".formatted(target.accountId(), RECONNECT_URL));
    }

    private static void awaitHeld(String postId) throws Exception {
        await(
                "the delivery is held",
                () -> !rows(
                                "select 1 from deliveries where post_id = ? and status = 'pending' and held_since is not null",
                                postId)
                        .isEmpty());
    }

    private void holdAccount(Mode mode, Target target) throws Exception {
        send(accountEvent(
                workspace, mode, target, AccountEvent.REAUTH_REQUIRED, AccountHealth.REAUTH_REQUIRED, RECONNECT_URL));
        await(
                "the account is held",
                () -> !rows("select 1 from held_accounts where account_id = ?", target.accountId())
                        .isEmpty());
    }
}
