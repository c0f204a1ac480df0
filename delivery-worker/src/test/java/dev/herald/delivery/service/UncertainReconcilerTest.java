package dev.herald.delivery.service;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static dev.herald.delivery.support.DeliveryTestSupport.await;
import static dev.herald.delivery.support.DeliveryTestSupport.completions;
import static dev.herald.delivery.support.DeliveryTestSupport.delivery;
import static dev.herald.delivery.support.DeliveryTestSupport.rows;
import static dev.herald.delivery.support.DeliveryTestSupport.update;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.UsageReservation;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.SandboxPublisher;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.FakeUsageService;
import dev.herald.delivery.support.LiveTarget;
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
 * Uncertain deliveries (the last call's outcome unknown, no attempt left) settled by the reconciler through the real
 * worker, database and broker: from the sandbox's memory in test mode, from what LinkedIn shows (its fake) in live
 * mode, never with a second publish call, and given up on as {@code publication_unconfirmed} after a day.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
class UncertainReconcilerTest {
    private static final String AUTHOR = "urn:li:organization:2414183";
    private static final String EMPTY_FEED = "{\"paging\":{\"start\":0,\"count\":20},\"elements\":[]}";

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @BeforeEach
    void startFakes() {
        FakeUsageService.ensureStarted();
    }

    @Test
    void anUncertainTestDeliveryTheSandboxPublishedIsSettledPublishedWithItsPost() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
        String token = PublishRequest.tokenOf(postId, accountId);
        String published = SandboxPublisher.providerPostIdOf(token);
        update(
                "insert into sandbox_publications (token, provider_post_id, publish_calls, created_at, last_called_at)"
                        + " values (?, ?, 1, now(), now())",
                token,
                published);
        insertUncertain(postId, accountId, "test", "tiktok", "acme_tiktok", "now()", "now()");

        JsonNode settled = settlement(postId);

        assertThat(settled.get("status").asText()).isEqualTo("published");
        assertThat(settled.get("provider_post_id").asText()).isEqualTo(published);
        assertThat(settled.get("url").asText()).isEqualTo("https://sandbox.herald.invalid/tiktok/" + published);
        assertThat(settled.get("attempts").asInt()).isEqualTo(5);
        assertThat(settled.get("reservation_id").asText()).isEqualTo(UsageReservation.publicationId(postId, accountId));
        assertThat(delivery(postId, accountId))
                .containsEntry("status", "published")
                .containsEntry("reconcile_at", null)
                .containsEntry("reconcile_token", null)
                .containsEntry("provider_post_id", published);
        // Looking is not publishing: the sandbox was not called again.
        assertThat(rows("select publish_calls from sandbox_publications where token = ?", token))
                .singleElement()
                .satisfies(row -> assertThat(row).containsEntry("publish_calls", 1));
    }

    @Test
    void anUncertainTestDeliveryTheSandboxNeverPublishedIsSettledFailed() throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
        insertUncertain(postId, accountId, "test", "tiktok", "acme_tiktok", "now()", "now()");

        JsonNode settled = settlement(postId);

        assertThat(settled.get("status").asText()).isEqualTo("failed");
        assertThat(settled.get("error").get("code").asText()).isEqualTo("provider_error");
        assertThat(settled.get("error").get("retryable").asBoolean()).isFalse();
        assertThat(settled.get("error").get("details").get("reconciled").asBoolean())
                .isTrue();
        assertThat(rows(
                        "select * from sandbox_publications where token = ?",
                        PublishRequest.tokenOf(postId, accountId)))
                .isEmpty();
    }

    @Test
    void aLiveDeliveryWhoseLastCallGotAServerErrorIsUncertainThenSettledFromTheAuthorsPostsWithoutASecondPost()
            throws Exception {
        LiveTarget target = new LiveTarget(Platform.LINKEDIN, AUTHOR, "li-token-1");
        String postId = target.postId;
        String accountId = target.accountId;
        // Four attempts came to nothing; the last left its outcome unknown ("calling").
        update(
                "insert into provider_publications (token, platform, state, calls, created_at, updated_at)"
                        + " values (?, 'linkedin', 'calling', 4, now(), now())",
                PublishRequest.tokenOf(postId, accountId));
        update(
                """
                insert into deliveries (post_id, account_id, workspace_id, mode, platform, account_username, reservation_id,
                    text, platform_options, status, attempts, next_attempt_at, source_event_id, created_at, updated_at)
                values (?, ?, ?, 'live', 'linkedin', 'acme', ?, 'Quarterly results', '{}', 'pending', 4, now(), ?, now(), now())""",
                postId,
                accountId,
                target.workspace,
                UsageReservation.publicationId(postId, accountId),
                ResourceIds.newId(IdPrefix.EVENT));
        // The fifth attempt looks (nothing yet), posts, and gets a 500 although LinkedIn created the post.
        target.fake.register(get(urlPathEqualTo("/rest/posts"))
                .inScenario("feed")
                .whenScenarioStateIs(STARTED)
                .willReturn(okJson(EMPTY_FEED)));
        target.fake.register(post(urlPathEqualTo("/rest/posts"))
                .inScenario("feed")
                .whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(500))
                .willSetStateTo("created"));
        target.fake.register(get(urlPathEqualTo("/rest/posts"))
                .inScenario("feed")
                .whenScenarioStateIs("created")
                .willReturn(okJson("""
                        {"paging":{"start":0,"count":20},"elements":[
                          {"id":"urn:li:share:77","author":"%s","commentary":"Quarterly results","lifecycleState":"PUBLISHED"}]}""".formatted(AUTHOR))));

        JsonNode uncertain = completions(postId, 1).get(0);
        assertThat(uncertain.get("status").asText()).isEqualTo("uncertain");
        assertThat(uncertain.get("attempts").asInt()).isEqualTo(5);
        assertThat(uncertain.get("error").get("code").asText()).isEqualTo("provider_error");
        Map<String, Object> row = delivery(postId, accountId);
        assertThat(row).containsEntry("status", "uncertain");
        // Its first look waits herald.delivery.reconcile.first-look (30 s), time for LinkedIn to recover.
        assertThat(instant(row, "reconcile_at"))
                .isAfter(instant(row, "completed_at").plus(Duration.ofSeconds(29)));

        List<JsonNode> both = lookNowUntilSettled(postId, 2);

        assertThat(both).hasSize(2);
        JsonNode settled = both.get(1);
        assertThat(settled.get("status").asText()).isEqualTo("published");
        assertThat(settled.get("provider_post_id").asText()).isEqualTo("urn:li:share:77");
        assertThat(settled.get("url").asText()).isEqualTo("https://www.linkedin.com/feed/update/urn:li:share:77/");
        assertThat(settled.get("attempts").asInt()).isEqualTo(5);
        assertThat(target.fake.find(postRequestedFor(urlPathEqualTo("/rest/posts"))))
                .as("publish calls")
                .hasSize(1);
        assertThat(target.fake.find(getRequestedFor(urlPathEqualTo("/rest/posts"))
                        .withHeader("Authorization", equalTo("Bearer li-token-1"))))
                .hasSize(2);
        assertThat(rows(
                        "select state, provider_post_id from provider_publications where token = ?",
                        PublishRequest.tokenOf(postId, accountId)))
                .singleElement()
                .satisfies(ledger -> assertThat(ledger)
                        .containsEntry("state", "published")
                        .containsEntry("provider_post_id", "urn:li:share:77"));
    }

    @Test
    void aPlatformThatCannotBeAskedNowIsAskedAgainLaterAndAFeedWithoutThePostSettlesItFailed() throws Exception {
        LiveTarget target = new LiveTarget(Platform.LINKEDIN, AUTHOR, "li-token-1");
        String postId = target.postId;
        String accountId = target.accountId;
        update(
                "insert into provider_publications (token, platform, state, calls, created_at, updated_at)"
                        + " values (?, 'linkedin', 'calling', 5, now(), now())",
                PublishRequest.tokenOf(postId, accountId));
        target.fake.register(
                get(urlPathEqualTo("/rest/posts")).willReturn(aResponse().withStatus(503)));
        insertUncertain(postId, accountId, "live", "linkedin", "acme", "now()", "now()");

        await("a second look is scheduled", () -> {
            Map<String, Object> row = delivery(postId, accountId);
            return ((Integer) row.get("reconcile_checks")) == 1 && row.get("reconcile_token") == null;
        });
        Map<String, Object> waiting = delivery(postId, accountId);
        assertThat(waiting).containsEntry("status", "uncertain");
        assertThat(instant(waiting, "reconcile_at"))
                .isAfter(instant(waiting, "updated_at").plus(Duration.ofSeconds(29)));
        assertThat(completions(postId, 1, Duration.ofSeconds(2))).isEmpty();

        target.fake.register(get(urlPathEqualTo("/rest/posts")).willReturn(okJson(EMPTY_FEED)));
        JsonNode settled = lookNowUntilSettled(postId, 1).get(0);

        assertThat(settled.get("status").asText()).isEqualTo("failed");
        assertThat(settled.get("error").get("message").asText()).contains("LinkedIn shows no post from it");
        assertThat(settled.get("error").get("details").get("reconciled").asBoolean())
                .isTrue();
        assertThat(target.fake.find(postRequestedFor(urlPathEqualTo("/rest/posts"))))
                .isEmpty();
        assertThat(rows(
                        "select state from provider_publications where token = ?",
                        PublishRequest.tokenOf(postId, accountId)))
                .singleElement()
                .satisfies(ledger -> assertThat(ledger).containsEntry("state", "refused"));
        assertThat((Integer) delivery(postId, accountId).get("reconcile_checks"))
                .isGreaterThanOrEqualTo(2);
    }

    @Test
    void aTargetUncertainForMoreThanADayIsSettledUnconfirmedWithoutAskingThePlatform() throws Exception {
        LiveTarget target = new LiveTarget(Platform.LINKEDIN, AUTHOR, "li-token-1");
        update(
                "insert into provider_publications (token, platform, state, calls, created_at, updated_at)"
                        + " values (?, 'linkedin', 'calling', 5, now(), now())",
                PublishRequest.tokenOf(target.postId, target.accountId));
        insertUncertain(
                target.postId, target.accountId, "live", "linkedin", "acme", "now() - interval '25 hours'", "now()");

        JsonNode settled = settlement(target.postId);

        assertThat(settled.get("status").asText()).isEqualTo("failed");
        assertThat(settled.get("error").get("code").asText()).isEqualTo("publication_unconfirmed");
        assertThat(settled.get("error").get("retryable").asBoolean()).isFalse();
        assertThat(target.fake.find(getRequestedFor(urlPathEqualTo("/rest/posts"))))
                .isEmpty();
        assertThat(target.fake.find(postRequestedFor(urlPathEqualTo("/rest/posts"))))
                .isEmpty();
    }

    /**
     * Brings the delivery's next look forward until its settlement arrives ({@code expected} completions in all). A look
     * may find the worker's accounts-service circuit open after earlier tests' failures, and then only waits longer.
     */
    private static List<JsonNode> lookNowUntilSettled(String postId, int expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            update(
                    "update deliveries set reconcile_at = now() where post_id = ? and status = 'uncertain'"
                            + " and reconcile_token is null",
                    postId);
            List<JsonNode> found = completions(postId, expected, Duration.ofSeconds(2));
            if (found.size() >= expected || System.nanoTime() > deadline) {
                assertThat(found).as("completions of post %s", postId).hasSize(expected);
                return found;
            }
        }
    }

    private static Instant instant(Map<String, Object> row, String column) {
        return ((java.sql.Timestamp) row.get(column)).toInstant();
    }

    /** The target.completed that settles the post's one uncertain delivery (inserted uncertain, so the only event). */
    private static JsonNode settlement(String postId) throws Exception {
        List<JsonNode> found = completions(postId, 1);
        assertThat(found).as("settlement of post %s", postId).hasSize(1);
        return found.get(0);
    }

    /** An uncertain row as a delivery that ran out of attempts (5) leaves it, uncertain since {@code since}. */
    private void insertUncertain(
            String postId,
            String accountId,
            String mode,
            String platform,
            String username,
            String since,
            String reconcileAt)
            throws Exception {
        update(
                """
                insert into deliveries (post_id, account_id, workspace_id, mode, platform, account_username, reservation_id,
                    text, platform_options, status, attempts, last_error, source_event_id, created_at, updated_at, completed_at,
                    reconcile_at)
                values (?, ?, ?, ?, ?, ?, ?, 'Hello from Herald', '{}', 'uncertain', 5,
                    '{"code":"provider_error","message":"The platform did not answer.","retryable":true,"details":{}}',
                    ?, %s, %s, %s, %s)""".formatted(since, since, since, reconcileAt),
                postId,
                accountId,
                workspace,
                mode,
                platform,
                username,
                UsageReservation.publicationId(postId, accountId),
                ResourceIds.newId(IdPrefix.EVENT));
    }
}
