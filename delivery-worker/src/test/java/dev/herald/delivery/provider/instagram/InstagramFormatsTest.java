package dev.herald.delivery.provider.instagram;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
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
import org.junit.jupiter.api.Timeout;

/** Instagram carousels and stories ({@code platform_options.instagram.format}) against a local fake of the API. */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
// Each test takes well under a second; one that hung for 30 s once in CI fails here with every thread's stack.
@Timeout(45)
class InstagramFormatsTest {
    private static final String USER = "17841405822304914";
    private static final String IG = "/ig/v24.0/";
    private static final Post.Media CROISSANT = new Post.Media("https://cdn.example.com/1.jpg", Post.Media.IMAGE);
    private static final Post.Media BAGUETTE = new Post.Media("https://cdn.example.com/2.jpg", Post.Media.IMAGE);
    private static final Post.Media OVEN = new Post.Media("https://cdn.example.com/3.mp4", Post.Media.VIDEO);

    @Inject
    InstagramPublisher publisher;

    private WireMock fake;
    private LiveTarget target;

    @BeforeEach
    void newTarget() {
        target = new LiveTarget(Platform.INSTAGRAM, USER, "IGAA-token");
        fake = target.fake;
    }

    private PublishOutcome publish(String text, List<Post.Media> media, ObjectNode options) {
        return publisher
                .publish(target.requestWithItems(text, media, options, 1))
                .await()
                .atMost(Duration.ofSeconds(90));
    }

    /** POST /media answers {@code id} when the body has {@code field} equal to {@code value}. */
    private void containerFor(String field, String value, String id) {
        fake.register(post(urlPathEqualTo(IG + USER + "/media"))
                .withRequestBody(matchingJsonPath("$." + field, equalTo(value)))
                .willReturn(okJson("{\"id\":\"" + id + "\"}")));
    }

    private void finished(String... containers) {
        for (String container : containers) {
            fake.register(get(urlPathEqualTo(IG + container)).willReturn(okJson("{\"status_code\":\"FINISHED\"}")));
        }
    }

    private void published(String mediaId) {
        fake.register(
                post(urlPathEqualTo(IG + USER + "/media_publish")).willReturn(okJson("{\"id\":\"" + mediaId + "\"}")));
        fake.register(get(urlPathEqualTo(IG + mediaId))
                .willReturn(okJson("{\"permalink\":\"https://www.instagram.com/p/" + mediaId + "/\"}")));
    }

    private String ledgerRef() throws Exception {
        return (String) DeliveryTestSupport.rows(
                        "select provider_ref from provider_publications where token = ?",
                        PublishRequest.tokenOf(target.postId, target.accountId))
                .get(0)
                .get("provider_ref");
    }

    @Test
    void anImageCarouselMakesOneChildPerItemInOrderThenItsCarouselAndPublishesItWithinTheAttempt() {
        containerFor("image_url", CROISSANT.url(), "k-1");
        containerFor("image_url", BAGUETTE.url(), "k-2");
        containerFor("media_type", "CAROUSEL", "c-car");
        finished("k-1", "k-2", "c-car");
        published("m-car");

        PublishOutcome outcome = publish("Morning bake", List.of(CROISSANT, BAGUETTE), LiveTarget.noOptions());

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("m-car");
        // The children string names 1.jpg's container first: the post's order.
        fake.verifyThat(3, postRequestedFor(urlPathEqualTo(IG + USER + "/media")));
        for (Post.Media item : List.of(CROISSANT, BAGUETTE)) {
            fake.verifyThat(
                    1,
                    postRequestedFor(urlPathEqualTo(IG + USER + "/media"))
                            .withRequestBody(
                                    equalToJson("{\"is_carousel_item\":true,\"image_url\":\"" + item.url() + "\"}")));
        }
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media"))
                        .withRequestBody(
                                equalToJson(
                                        "{\"media_type\":\"CAROUSEL\",\"children\":\"k-1,k-2\",\"caption\":\"Morning bake\"}")));
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish"))
                        .withRequestBody(equalToJson("{\"creation_id\":\"c-car\"}")));

        // A redelivered attempt answers the published carousel without a call.
        assertThat(publish("Morning bake", List.of(CROISSANT, BAGUETTE), LiveTarget.noOptions())
                        .providerPostId())
                .isEqualTo("m-car");
        fake.verifyThat(3, postRequestedFor(urlPathEqualTo(IG + USER + "/media")));
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish")));
    }

    @Test
    void aCarouselWhosePublishAnswerWasLostIsFoundByItsCaptionNotPublishedAgain() {
        containerFor("image_url", CROISSANT.url(), "k-1");
        containerFor("image_url", BAGUETTE.url(), "k-2");
        containerFor("media_type", "CAROUSEL", "c-car");
        finished("k-1", "k-2", "c-car");
        fake.register(post(urlPathEqualTo(IG + USER + "/media_publish"))
                .willReturn(aResponse().withStatus(500)));
        List<Post.Media> items = List.of(CROISSANT, BAGUETTE);
        assertThat(publish("Lost answer", items, LiveTarget.noOptions()).error().retryable())
                .isTrue();

        fake.register(get(urlPathEqualTo(IG + USER + "/media")).willReturn(okJson("""
                {"data":[{"id":"m-found","caption":"Lost answer","permalink":"https://www.instagram.com/p/Found/"}]}""")));
        PublishOutcome found = publish("Lost answer", items, LiveTarget.noOptions());

        assertThat(found.published()).isTrue();
        assertThat(found.providerPostId()).isEqualTo("m-found");
        fake.verifyThat(3, postRequestedFor(urlPathEqualTo(IG + USER + "/media")));
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish")));
    }

    @Test
    void aCarouselWithAVideoWaitsForItsChildrenAcrossAttemptsAndMakesItsCarouselContainerOnce() throws Exception {
        containerFor("image_url", CROISSANT.url(), "k-1");
        containerFor("video_url", OVEN.url(), "k-2");
        containerFor("media_type", "CAROUSEL", "c-car");
        finished("k-1");
        statuses("k-2", "IN_PROGRESS", "FINISHED");
        statuses("c-car", "IN_PROGRESS", "FINISHED");
        published("m-car");
        List<Post.Media> items = List.of(CROISSANT, OVEN);

        assertThat(publish("Oven cam", items, LiveTarget.noOptions()).isLater()).isTrue();
        assertThat(ledgerRef()).isEqualTo("children:k-1,k-2");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media"))
                        .withRequestBody(equalToJson("{\"is_carousel_item\":true,\"media_type\":\"VIDEO\","
                                + "\"video_url\":\"https://cdn.example.com/3.mp4\"}")));

        assertThat(publish("Oven cam", items, LiveTarget.noOptions()).isLater())
                .as("the video child is still processing")
                .isTrue();
        assertThat(publish("Oven cam", items, LiveTarget.noOptions()).isLater())
                .as("the carousel container is made and still processing")
                .isTrue();
        assertThat(ledgerRef()).isEqualTo("c-car");
        PublishOutcome outcome = publish("Oven cam", items, LiveTarget.noOptions());

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("m-car");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media"))
                        .withRequestBody(matchingJsonPath("$.media_type", equalTo("CAROUSEL"))));
        fake.verifyThat(3, postRequestedFor(urlPathEqualTo(IG + USER + "/media")));
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish")));
    }

    @Test
    void aChildInstagramRefusesFailsTheCarouselBeforeAnyCarouselOrPublishCall() {
        containerFor("image_url", CROISSANT.url(), "k-1");
        fake.register(post(urlPathEqualTo(IG + USER + "/media"))
                .withRequestBody(matchingJsonPath("$.image_url", equalTo(BAGUETTE.url())))
                .willReturn(aResponse()
                        .withStatus(400)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"error\":{\"message\":\"The media could not be fetched from this URI\","
                                + "\"type\":\"IGApiException\",\"code\":100,\"error_subcode\":2207052}}")));
        finished("k-1");

        PublishOutcome outcome = publish("Half a carousel", List.of(CROISSANT, BAGUETTE), LiveTarget.noOptions());

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("the carousel's item 2").contains("could not be fetched");
        fake.verifyThat(
                0,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media"))
                        .withRequestBody(matchingJsonPath("$.media_type", equalTo("CAROUSEL"))));
        fake.verifyThat(0, postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish")));
    }

    @Test
    void anImageStoryIsAStoriesContainerWithoutACaptionPublishedWithinTheAttempt() {
        containerFor("media_type", "STORIES", "c-story");
        finished("c-story");
        published("m-story");

        PublishOutcome outcome = publish(
                "Not shown on a story",
                List.of(CROISSANT, BAGUETTE),
                LiveTarget.noOptions().put("format", "story"));

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("m-story");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media"))
                        .withRequestBody(equalToJson(
                                "{\"media_type\":\"STORIES\",\"image_url\":\"https://cdn.example.com/1.jpg\"}")));
    }

    @Test
    void aVideoStoryIsCheckedOnLaterAttemptsLikeAReel() throws Exception {
        containerFor("media_type", "STORIES", "c-vstory");
        statuses("c-vstory", "FINISHED");
        published("m-vstory");
        ObjectNode story = LiveTarget.noOptions().put("format", "story");

        assertThat(publish("", List.of(OVEN), story).isLater()).isTrue();
        assertThat(ledgerRef()).isEqualTo("c-vstory");
        PublishOutcome outcome = publish("", List.of(OVEN), story);

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("m-vstory");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media"))
                        .withRequestBody(equalToJson(
                                "{\"media_type\":\"STORIES\",\"video_url\":\"https://cdn.example.com/3.mp4\"}")));
    }

    @Test
    void aReelFormatMakesAReelsContainerFromTheFirstItem() {
        containerFor("media_type", "REELS", "c-reel");

        PublishOutcome outcome = publish(
                "Reel it", List.of(OVEN, CROISSANT), LiveTarget.noOptions().put("format", "reel"));

        assertThat(outcome.isLater()).isTrue();
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(IG + USER + "/media"))
                        .withRequestBody(equalToJson("{\"media_type\":\"REELS\","
                                + "\"video_url\":\"https://cdn.example.com/3.mp4\",\"caption\":\"Reel it\"}")));
    }

    private void statuses(String container, String... statuses) {
        for (int i = 0; i < statuses.length; i++) {
            fake.register(get(urlPathEqualTo(IG + container))
                    .inScenario(container)
                    .whenScenarioStateIs(state(container, i))
                    .willReturn(okJson("{\"status_code\":\"" + statuses[i] + "\"}"))
                    // The last status stays.
                    .willSetStateTo(state(container, Math.min(i + 1, statuses.length - 1))));
        }
    }

    private static String state(String container, int check) {
        return check == 0 ? STARTED : container + " " + check;
    }
}
