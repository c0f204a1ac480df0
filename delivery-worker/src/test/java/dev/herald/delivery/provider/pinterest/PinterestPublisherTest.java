package dev.herald.delivery.provider.pinterest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Pinterest publisher against a local fake of Pinterest's API v5 and accounts-service. */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PinterestPublisherTest {
    private static final String BOARD = "549755885175";
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

    private static ObjectNode options() {
        return DeliveryTestSupport.JSON.createObjectNode().put("board_id", BOARD);
    }

    private PublishOutcome publish(String text, Post.Media media, ObjectNode options, int attempt) {
        return publisher
                .publish(target.request(text, media, options, attempt))
                .await()
                .atMost(Duration.ofSeconds(30));
    }

    private List<LoggedRequest> pinsCreated() {
        return fake.find(postRequestedFor(urlPathEqualTo("/v5/pins")));
    }

    @Test
    void anImagePinGoesOnTheBoardWithThePostsOptions() {
        fake.register(post(urlPathEqualTo("/v5/pins"))
                .willReturn(aResponse()
                        .withStatus(201)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"id\":\"813744226420795884\",\"board_id\":\"" + BOARD + "\"}")));

        PublishOutcome outcome = publish(
                "A chair for reading",
                IMAGE,
                options()
                        .put("board_section_id", "4567")
                        .put("title", "Reading chair")
                        .put("link", "https://acme.example/chair")
                        .put("alt_text", "A green armchair"),
                1);

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("813744226420795884");
        assertThat(outcome.url()).isEqualTo("https://www.pinterest.com/pin/813744226420795884/");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo("/v5/pins"))
                        .withHeader("Authorization", equalTo("Bearer pina_token"))
                        .withRequestBody(equalToJson("""
                        {"board_id":"549755885175","board_section_id":"4567","title":"Reading chair","link":"https://acme.example/chair",
                         "alt_text":"A green armchair","description":"A chair for reading",
                         "media_source":{"source_type":"image_url","url":"https://cdn.example.com/chair.jpg"}}""")));
    }

    @Test
    void severalImagesAreOneCarouselPinOfTheirUrlsInOrder() {
        fake.register(post(urlPathEqualTo("/v5/pins"))
                .willReturn(aResponse()
                        .withStatus(201)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"id\":\"813744226420795885\",\"board_id\":\"" + BOARD + "\"}")));
        List<Post.Media> images = List.of(
                new Post.Media("https://cdn.example.com/chair-1.jpg", Post.Media.IMAGE),
                new Post.Media("https://cdn.example.com/chair-2.jpg", Post.Media.IMAGE),
                new Post.Media("https://cdn.example.com/chair-3.jpg", Post.Media.IMAGE));

        PublishOutcome outcome = publisher
                .publish(target.requestWithItems(
                        "Three chairs", images, options().put("title", "Chairs"), 1))
                .await()
                .atMost(Duration.ofSeconds(30));

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("813744226420795885");
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo("/v5/pins")).withRequestBody(equalToJson("""
                {"board_id":"549755885175","title":"Chairs","description":"Three chairs",
                 "media_source":{"source_type":"multiple_image_urls","items":[
                   {"url":"https://cdn.example.com/chair-1.jpg"},{"url":"https://cdn.example.com/chair-2.jpg"},
                   {"url":"https://cdn.example.com/chair-3.jpg"}]}}""")));
    }

    @Test
    void aVideoAmongSeveralItemsIsRefusedWithoutCallingPinterest() {
        List<Post.Media> items = List.of(IMAGE, new Post.Media("https://cdn.example.com/chair.mp4", Post.Media.VIDEO));

        PublishOutcome outcome = publisher
                .publish(target.requestWithItems("A chair and a film", items, options(), 1))
                .await()
                .atMost(Duration.ofSeconds(30));

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("carousels take images only");
        assertThat(pinsCreated()).isEmpty();
    }

    @Test
    void aBoardThatDoesNotExistIsAFinalRefusalWithPinterestsMessage() {
        fake.register(post(urlPathEqualTo("/v5/pins"))
                .willReturn(aResponse()
                        .withStatus(404)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"code\":2,\"message\":\"Board not found.\"}")));

        PublishOutcome outcome = publish("Lost", IMAGE, options(), 1);

        assertThat(outcome.error().code()).isEqualTo("provider_error");
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("HTTP 404").contains("Board not found.");
        assertThat(outcome.error().details()).containsEntry("provider_code", "2");
    }

    @Test
    void aRateLimitIsRetryableWithItsRetryAfter() {
        fake.register(post(urlPathEqualTo("/v5/pins"))
                .willReturn(aResponse()
                        .withStatus(429)
                        .withHeader("Retry-After", "30")
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"code\":8,\"message\":\"Rate limit exceeded\"}")));

        PublishOutcome outcome = publish("Later", IMAGE, options(), 1);

        assertThat(outcome.error().retryable()).isTrue();
        assertThat(outcome.error().details())
                .containsEntry("retry_after_seconds", 30)
                .containsEntry("provider_status", 429);
    }

    @Test
    void afterAServerErrorTheNextAttemptFindsThePinOnTheBoard() {
        fake.register(post(urlPathEqualTo("/v5/pins")).willReturn(aResponse().withStatus(503)));
        assertThat(publish("Found later", IMAGE, options(), 1).error().retryable())
                .isTrue();

        fake.register(get(urlPathEqualTo("/v5/boards/" + BOARD + "/pins")).willReturn(okJson("""
                {"items":[{"id":"1","description":"Other"},{"id":"2","description":"Found later"}],"bookmark":null}""")));
        PublishOutcome found = publish("Found later", IMAGE, options(), 2);

        assertThat(found.providerPostId()).isEqualTo("2");
        assertThat(pinsCreated()).hasSize(1);
        assertThat(fake.find(getRequestedFor(urlPathEqualTo("/v5/boards/" + BOARD + "/pins")))
                        .get(0)
                        .queryParameter("page_size")
                        .firstValue())
                .isEqualTo("25");
    }
}
