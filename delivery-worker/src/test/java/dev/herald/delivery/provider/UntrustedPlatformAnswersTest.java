package dev.herald.delivery.provider;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.common.net.PlatformAnswerUnreadable;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.pinterest.PinterestPublisher;
import dev.herald.delivery.support.DeliveryTestSupport;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.LiveTarget;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * API10: a platform's answers are untrusted. Pinterest's pin call (a REST client like every publisher's) answers too
 * much, not JSON, the wrong shape, an id Herald will not keep, or a redirect elsewhere.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
class UntrustedPlatformAnswersTest {
    private static final Post.Media IMAGE = new Post.Media("https://cdn.example.com/chair.jpg", Post.Media.IMAGE);

    @Inject
    PinterestPublisher publisher;

    private WireMock fake;
    private LiveTarget target;

    @BeforeEach
    void newTarget() {
        target = new LiveTarget(Platform.PINTEREST, "1122334455", "pina_token");
        fake = target.fake;
    }

    private void pinAnswers(ResponseDefinitionBuilder answer) {
        MappingBuilder pins = post(urlPathEqualTo("/v5/pins"));
        fake.register(pins.willReturn(answer.withStatus(201)));
    }

    /** The outcome DeliveryAttempts records: a failed call whose answer was unreadable is that error. */
    private PublishOutcome publish() {
        return publisher
                .publish(target.request(
                        "A chair",
                        IMAGE,
                        DeliveryTestSupport.JSON.createObjectNode().put("board_id", "5497"),
                        1))
                .onFailure(failure -> PlatformAnswerUnreadable.in(failure) != null)
                .recoverWithItem(failure -> PublishOutcome.failed(
                        UntrustedAnswers.unreadable(Platform.PINTEREST, PlatformAnswerUnreadable.in(failure))))
                .await()
                .atMost(Duration.ofSeconds(30));
    }

    private static void assertFinalProviderError(PublishOutcome outcome, String reason) {
        assertThat(outcome.published()).isFalse();
        assertThat(outcome.mayHavePublished()).isFalse();
        TargetError error = outcome.error();
        assertThat(error.code()).isEqualTo(TargetError.PROVIDER_ERROR);
        assertThat(error.retryable()).isFalse();
        assertThat(error.details()).containsEntry("platform", "pinterest").containsEntry("reason", reason);
        assertThat(error.message()).startsWith("Pinterest accepted the call, but ");
    }

    @Test
    void aDeclaredAnswerOverTheCapIsNotReadAndFailsTheTarget() {
        pinAnswers(aResponse()
                .withHeader("Content-Type", "application/json")
                .withBody("{\"id\":\"1\",\"pad\":\"" + "x".repeat(3 << 20) + "\"}"));

        PublishOutcome outcome = publish();

        assertFinalProviderError(outcome, "answer_too_large");
        assertThat(outcome.error().details()).containsEntry("limit_bytes", 1L << 20);
    }

    @Test
    void aChunkedAnswerOverTheCapIsCutAndFailsTheTarget() {
        pinAnswers(aResponse()
                .withHeader("Content-Type", "application/json")
                .withBody("{\"id\":\"1\",\"pad\":\"" + "x".repeat(3 << 20) + "\"}")
                .withChunkedDribbleDelay(4, 40));

        assertFinalProviderError(publish(), "answer_too_large");
    }

    @Test
    void malformedJsonFailsTheTargetWithoutEchoingIt() {
        pinAnswers(aResponse().withHeader("Content-Type", "application/json").withBody("{\"id\": \"81374422"));

        PublishOutcome outcome = publish();

        assertFinalProviderError(outcome, "answer_not_json");
        assertThat(outcome.error().toString()).doesNotContain("81374422");
    }

    @Test
    void htmlWhereJsonWasExpectedFailsTheTarget() {
        pinAnswers(aResponse().withHeader("Content-Type", "text/html").withBody("<html>maintenance</html>"));

        PublishOutcome outcome = publish();

        assertFinalProviderError(outcome, "answer_not_json");
        assertThat(outcome.error().details()).containsEntry("content_type", "text/html");
    }

    @Test
    void aStringWhereAnObjectWasExpectedFailsTheTarget() {
        pinAnswers(aResponse().withHeader("Content-Type", "application/json").withBody("\"813744226420795884\""));

        assertFinalProviderError(publish(), "answer_not_an_object");
    }

    @Test
    void aTenKilobytePostIdIsNeitherStoredNorShown() {
        pinAnswers(aResponse()
                .withHeader("Content-Type", "application/json")
                .withBody("{\"id\":\"" + "9".repeat(10_000) + "\"}"));

        PublishOutcome outcome = publish();

        assertFinalProviderError(outcome, "unsafe_post_id");
        assertThat(outcome.error().details()).containsEntry("problem", "is longer than 256 characters");
        assertThat(outcome.providerPostId()).isNull();
    }

    @Test
    void aPostIdWithControlCharactersIsRefused() {
        pinAnswers(aResponse()
                .withHeader("Content-Type", "application/json")
                .withBody("{\"id\":\"8137\\r\\nX-Injected: 1\\u0000\"}"));

        PublishOutcome outcome = publish();

        assertFinalProviderError(outcome, "unsafe_post_id");
        assertThat(outcome.error().details()).containsEntry("problem", "has characters other than printable ASCII");
    }

    @Test
    void aRedirectToAnotherHostIsNotFollowed() {
        fake.register(post(urlPathEqualTo("/v5/pins"))
                .willReturn(aResponse().withStatus(307).withHeader("Location", "http://127.0.0.2:1/steal")));
        fake.register(post(urlPathEqualTo("/steal")).willReturn(aResponse().withStatus(201)));

        PublishOutcome outcome = publish();

        assertThat(outcome.published()).isFalse();
        assertThat(fake.find(anyRequestedFor(urlPathEqualTo("/steal")))).isEmpty();
    }

    @Test
    void onlyHttpsPermalinksAreKept() {
        assertThat(UntrustedAnswers.safeUrl("https://www.instagram.com/p/Cx1/"))
                .isEqualTo("https://www.instagram.com/p/Cx1/");
        assertThat(UntrustedAnswers.safeUrl("javascript:alert(document.cookie)"))
                .isNull();
        assertThat(UntrustedAnswers.safeUrl("JavaScript://www.instagram.com/%0aalert(1)"))
                .isNull();
        assertThat(UntrustedAnswers.safeUrl("http://www.instagram.com/p/Cx1/")).isNull();
        assertThat(UntrustedAnswers.safeUrl("https://user:pw@www.instagram.com/p/Cx1/"))
                .isNull();
        assertThat(UntrustedAnswers.safeUrl("https://www.instagram.com/p/Cx1/\u0000"))
                .isNull();
        assertThat(UntrustedAnswers.safeUrl("https://www.instagram.com/" + "p".repeat(3000)))
                .isNull();
        assertThat(UntrustedAnswers.safeUrl(null)).isNull();
    }
}
