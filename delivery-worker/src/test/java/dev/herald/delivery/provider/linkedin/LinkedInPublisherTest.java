package dev.herald.delivery.provider.linkedin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.support.DeliveryTestSupport;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.LiveTarget;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The LinkedIn publisher against a local fake of LinkedIn's Posts API and of accounts-service's access endpoint
 * (WireMock), with its call ledger in the real database: the exact requests LinkedIn documents, token refresh on
 * 401, revoked grants, retryable and final refusals, and no second post when an earlier call's outcome is unknown.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
class LinkedInPublisherTest {
    private static final String ORGANIZATION = "urn:li:organization:2414183";

    @Inject
    LinkedInPublisher publisher;

    private WireMock fake;
    private LiveTarget target;
    private String workspace;
    private String accountId;

    @BeforeEach
    void newTarget() {
        target = new LiveTarget(Platform.LINKEDIN, ORGANIZATION, "li-token-1");
        fake = target.fake;
        workspace = target.workspace;
        accountId = target.accountId;
    }

    private void accountsAnswer(String token) {
        fake.register(post(urlPathEqualTo(accessPath())).willReturn(okJson(access(token))));
    }

    private String accessPath() {
        return target.accessPath();
    }

    private String access(String token) {
        return target.access(token);
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder created(String urn) {
        return aResponse().withStatus(201).withHeader("x-restli-id", urn);
    }

    private PublishOutcome publish(String text, int attempt) {
        return publish(text, null, attempt);
    }

    private PublishOutcome publish(String text, Post.Media media, int attempt) {
        return publish(text, media, DeliveryTestSupport.JSON.createObjectNode(), attempt);
    }

    private PublishOutcome publish(
            String text, Post.Media media, com.fasterxml.jackson.databind.node.ObjectNode options, int attempt) {
        return publisher
                .publish(target.request(text, media, options, attempt))
                .await()
                .atMost(Duration.ofSeconds(30));
    }

    private List<LoggedRequest> postsCreated() {
        return fake.find(postRequestedFor(urlPathEqualTo("/rest/posts")));
    }

    @Test
    void aTextPostIsCreatedAsTheAccountWithLinkedInsVersionedHeadersAndEscapedCommentary() throws Exception {
        accountsAnswer("li-token-1");
        fake.register(post(urlPathEqualTo("/rest/posts")).willReturn(created("urn:li:share:7012345678901234567")));

        PublishOutcome outcome = publish("Launch (v2) @ 50% off #sale *now*", 1);

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("urn:li:share:7012345678901234567");
        assertThat(outcome.url()).isEqualTo("https://www.linkedin.com/feed/update/urn:li:share:7012345678901234567/");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo("/rest/posts"))
                        .withHeader("Authorization", equalTo("Bearer li-token-1"))
                        .withHeader("LinkedIn-Version", equalTo("202601"))
                        .withHeader("X-Restli-Protocol-Version", equalTo("2.0.0"))
                        .withHeader("Content-Type", WireMock.containing("application/json"))
                        .withRequestBody(equalToJson("""
                        {"author":"urn:li:organization:2414183",
                         "commentary":"Launch \\\\(v2\\\\) \\\\@ 50% off \\\\#sale \\\\*now\\\\*",
                         "visibility":"PUBLIC",
                         "distribution":{"feedDistribution":"MAIN_FEED","targetEntities":[],"thirdPartyDistributionChannels":[]},
                         "lifecycleState":"PUBLISHED","isReshareDisabledByAuthor":false}""")));
        // Asked accounts-service as this tenant, naming no refused token.
        LoggedRequest asked =
                fake.find(postRequestedFor(urlPathEqualTo(accessPath()))).get(0);
        assertThat(asked.getBodyAsString()).isEqualTo("{}");
        String claims = new String(
                java.util.Base64.getUrlDecoder()
                        .decode(asked.getHeader("authorization").split("\\.")[1]),
                StandardCharsets.UTF_8);
        assertThat(claims).contains("\"wid\":\"" + workspace + "\"").contains("\"mode\":\"live\"");
    }

    @Test
    void theVisibilityOptionIsPassedOn() {
        accountsAnswer("li-token-1");
        fake.register(post(urlPathEqualTo("/rest/posts")).willReturn(created("urn:li:share:4")));

        publish(
                "For my network",
                null,
                DeliveryTestSupport.JSON.createObjectNode().put("visibility", "CONNECTIONS"),
                1);

        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo("/rest/posts"))
                        .withRequestBody(matchingJsonPath("$.visibility", equalTo("CONNECTIONS"))));
    }

    @Test
    void anotherAttemptAfterPublishingAnswersThePostWithoutCallingLinkedInAgain() {
        accountsAnswer("li-token-1");
        fake.register(post(urlPathEqualTo("/rest/posts")).willReturn(created("urn:li:share:1")));

        assertThat(publish("Once", 1).providerPostId()).isEqualTo("urn:li:share:1");
        PublishOutcome again = publish("Once", 2);

        assertThat(again.published()).isTrue();
        assertThat(again.providerPostId()).isEqualTo("urn:li:share:1");
        assertThat(postsCreated()).hasSize(1);
        assertThat(fake.find(getRequestedFor(urlPathEqualTo("/rest/posts")))).isEmpty();
    }

    @Test
    void aRefusedTokenIsReplacedOnceThroughAccountsServiceThenThePostIsCreated() throws Exception {
        fake.register(post(urlPathEqualTo(accessPath()))
                .withRequestBody(equalToJson("{}"))
                .willReturn(okJson(access("li-old"))));
        fake.register(post(urlPathEqualTo(accessPath()))
                .withRequestBody(matchingJsonPath("$.rejected_token_sha256", equalTo(sha256("li-old"))))
                .willReturn(okJson(access("li-new"))));
        fake.register(
                post(urlPathEqualTo("/rest/posts"))
                        .withHeader("Authorization", equalTo("Bearer li-old"))
                        .willReturn(
                                aResponse()
                                        .withStatus(401)
                                        .withHeader("Content-Type", "application/json")
                                        .withBody(
                                                "{\"status\":401,\"serviceErrorCode\":65601,\"code\":\"REVOKED_ACCESS_TOKEN\",\"message\":\"The token used in the request has been revoked by the user\"}")));
        fake.register(post(urlPathEqualTo("/rest/posts"))
                .withHeader("Authorization", equalTo("Bearer li-new"))
                .willReturn(created("urn:li:share:2")));

        PublishOutcome outcome = publish("Fresh token", 1);

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("urn:li:share:2");
        assertThat(postsCreated()).hasSize(2);
        assertThat(fake.find(postRequestedFor(urlPathEqualTo(accessPath())))).hasSize(2);
    }

    @Test
    void aTokenRefusedAgainAfterItsReplacementFailsTheTargetWithoutAThirdCall() {
        fake.register(post(urlPathEqualTo(accessPath()))
                .withRequestBody(equalToJson("{}"))
                .willReturn(okJson(access("li-a"))));
        fake.register(post(urlPathEqualTo(accessPath()))
                .withRequestBody(matchingJsonPath("$.rejected_token_sha256"))
                .willReturn(okJson(access("li-b"))));
        fake.register(post(urlPathEqualTo("/rest/posts"))
                .willReturn(aResponse().withStatus(401).withBody("{\"status\":401}")));

        PublishOutcome outcome = publish("Refused twice", 1);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().code()).isEqualTo("provider_error");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(postsCreated()).hasSize(2);
    }

    @Test
    void aRevokedGrantFailsTheTargetAsDisconnectedAndNothingIsSentToLinkedIn() {
        fake.register(post(urlPathEqualTo(accessPath()))
                .willReturn(aResponse()
                        .withStatus(409)
                        .withHeader("Content-Type", "application/json")
                        .withBody("""
                        {"error":{"code":"conflict","message":"LinkedIn revoked Herald's access to the account; the account is now disconnected.",
                         "details":{"account_id":"%s","reason":"grant_revoked","provider_code":"invalid_grant"}},
                         "request_id":"req_000000000000000000000000"}""".formatted(accountId))));

        PublishOutcome outcome = publish("Never sent", 1);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().code()).isEqualTo("account_disconnected");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("revoked");
        assertThat(outcome.error().details())
                .containsEntry("reason", "grant_revoked")
                .containsEntry("account_id", accountId);
        assertThat(postsCreated()).isEmpty();
    }

    @Test
    void rateLimitingIsRetryableWithLinkedInsRetryAfterAndTheNextAttemptPostsAgain() {
        accountsAnswer("li-token-1");
        fake.register(post(urlPathEqualTo("/rest/posts"))
                .willReturn(aResponse()
                        .withStatus(429)
                        .withHeader("Retry-After", "120")
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"status\":429,\"message\":\"Resource level throttle\"}")));

        PublishOutcome limited = publish("Busy", 1);

        assertThat(limited.published()).isFalse();
        assertThat(limited.error().code()).isEqualTo("provider_error");
        assertThat(limited.error().retryable()).isTrue();
        assertThat(limited.error().details())
                .containsEntry("provider_status", 429)
                .containsEntry("retry_after_seconds", 120);

        // A 429 created nothing: the next attempt calls again without looking through the author's posts.
        fake.register(post(urlPathEqualTo("/rest/posts")).willReturn(created("urn:li:share:3")));
        assertThat(publish("Busy", 2).providerPostId()).isEqualTo("urn:li:share:3");
        assertThat(fake.find(getRequestedFor(urlPathEqualTo("/rest/posts")))).isEmpty();
    }

    @Test
    void afterAServerErrorTheNextAttemptFindsThePostAnEarlierCallMadeInsteadOfPostingTwice() {
        accountsAnswer("li-token-1");
        fake.register(post(urlPathEqualTo("/rest/posts")).willReturn(aResponse().withStatus(504)));
        PublishOutcome unknown = publish("Big news (today)", 1);
        assertThat(unknown.published()).isFalse();
        assertThat(unknown.error().retryable()).isTrue();

        fake.register(get(urlPathEqualTo("/rest/posts")).willReturn(okJson("""
                {"paging":{"start":0,"count":20},"elements":[
                  {"id":"urn:li:share:8","author":"urn:li:organization:2414183","commentary":"Something else","lifecycleState":"PUBLISHED"},
                  {"id":"urn:li:share:9","author":"urn:li:organization:2414183","commentary":"Big news \\\\(today\\\\)","lifecycleState":"PUBLISHED"}]}""")));
        PublishOutcome found = publish("Big news (today)", 2);

        assertThat(found.published()).isTrue();
        assertThat(found.providerPostId()).isEqualTo("urn:li:share:9");
        assertThat(postsCreated()).hasSize(1);
        LoggedRequest listed =
                fake.find(getRequestedFor(urlPathEqualTo("/rest/posts"))).get(0);
        assertThat(listed.getUrl())
                .contains("q=author")
                .contains("author=urn%3Ali%3Aorganization%3A2414183")
                .contains("count=20")
                .contains("sortBy=LAST_MODIFIED");
        assertThat(listed.getHeader("LinkedIn-Version")).isEqualTo("202601");
        assertThat(listed.getHeader("X-Restli-Protocol-Version")).isEqualTo("2.0.0");
    }

    @Test
    void whenTheAuthorsPostsHoldNoSuchPostTheNextAttemptPublishes() {
        accountsAnswer("li-token-1");
        fake.register(post(urlPathEqualTo("/rest/posts")).willReturn(aResponse().withStatus(503)));
        assertThat(publish("Maybe", 1).error().retryable()).isTrue();

        fake.register(get(urlPathEqualTo("/rest/posts"))
                .willReturn(okJson("{\"paging\":{\"start\":0,\"count\":20},\"elements\":[]}")));
        fake.register(post(urlPathEqualTo("/rest/posts")).willReturn(created("urn:li:share:10")));

        assertThat(publish("Maybe", 2).providerPostId()).isEqualTo("urn:li:share:10");
        assertThat(postsCreated()).hasSize(2);
    }

    @Test
    void anUnknownOutcomeThatCannotBeCheckedFailsUnconfirmedRatherThanRiskASecondPost() {
        accountsAnswer("li-token-1");
        fake.register(post(urlPathEqualTo("/rest/posts")).willReturn(aResponse().withStatus(502)));
        assertThat(publish("Unsure", 1).error().retryable()).isTrue();

        // Members' posts need r_member_social, which LinkedIn grants few apps.
        fake.register(
                get(urlPathEqualTo("/rest/posts"))
                        .willReturn(
                                aResponse()
                                        .withStatus(403)
                                        .withHeader("Content-Type", "application/json")
                                        .withBody(
                                                "{\"status\":403,\"serviceErrorCode\":100,\"message\":\"Not enough permissions to access: partnerApiPostsExternal.FINDER-author\"}")));
        PublishOutcome outcome = publish("Unsure", 2);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().code()).isEqualTo("publication_unconfirmed");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().details())
                .containsEntry("provider_status", 403)
                .containsEntry("provider_code", "100");
        assertThat(postsCreated()).hasSize(1);
    }

    @Test
    void aRefusalOfThePostItselfIsFinalWithLinkedInsMessage() {
        accountsAnswer("li-token-1");
        fake.register(
                post(urlPathEqualTo("/rest/posts"))
                        .willReturn(
                                aResponse()
                                        .withStatus(422)
                                        .withHeader("Content-Type", "application/json")
                                        .withBody(
                                                "{\"status\":422,\"serviceErrorCode\":100,\"message\":\"ERROR :: /commentary :: duplicate post\"}")));

        PublishOutcome outcome = publish("Dup", 1);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().code()).isEqualTo("provider_error");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("HTTP 422").contains("duplicate post");
        assertThat(outcome.error().details()).isEqualTo(Map.of("provider_status", 422, "provider_code", "100"));
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
