package dev.herald.delivery.provider.facebook;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.provider.PublishOutcome;
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

/**
 * Facebook multi-photo posts, Reels and stories ({@code platform_options.facebook.format}) against a local fake of the
 * Graph API and its upload host.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
class FacebookFormatsTest {
    private static final String PAGE = "1029384756";
    private static final String GRAPH = "/v24.0/" + PAGE;
    private static final String UPLOAD = "/video-upload/v24.0/";
    private static final Post.Media BREAD = new Post.Media("https://cdn.example.com/bread.jpg", Post.Media.IMAGE);
    private static final Post.Media BUNS = new Post.Media("https://cdn.example.com/buns.jpg", Post.Media.IMAGE);
    private static final Post.Media KNEAD = new Post.Media("https://cdn.example.com/knead.mp4", Post.Media.VIDEO);

    @Inject
    FacebookPublisher publisher;

    private WireMock fake;
    private LiveTarget target;

    @BeforeEach
    void newTarget() {
        target = new LiveTarget(Platform.FACEBOOK, PAGE, "EAAG-page-token");
        fake = target.fake;
    }

    private PublishOutcome publish(String text, List<Post.Media> media, ObjectNode options) {
        return publisher
                .publish(target.requestWithItems(text, media, options, 1))
                .await()
                .atMost(Duration.ofSeconds(30));
    }

    private void photoUploaded(Post.Media photo, String id) {
        fake.register(post(urlPathEqualTo(GRAPH + "/photos"))
                .withFormParam("url", equalTo(photo.url()))
                .willReturn(okJson("{\"id\":\"" + id + "\"}")));
    }

    private void sessionStarted(String edge, String videoId) {
        fake.register(post(urlPathEqualTo(GRAPH + "/" + edge))
                .withFormParam("upload_phase", equalTo("start"))
                .willReturn(okJson("{\"video_id\":\"" + videoId + "\",\"upload_url\":\"https://rupload.facebook.com"
                        + UPLOAD + videoId + "\"}")));
        fake.register(post(urlPathEqualTo(UPLOAD + videoId)).willReturn(okJson("{\"success\":true}")));
    }

    @Test
    void imagesAreUploadedUnpublishedThenAttachedInOrderToOneFeedPost() {
        photoUploaded(BREAD, "p-1");
        photoUploaded(BUNS, "p-2");
        fake.register(post(urlPathEqualTo(GRAPH + "/feed")).willReturn(okJson("{\"id\":\"" + PAGE + "_777\"}")));

        PublishOutcome outcome = publish("Fresh today", List.of(BREAD, BUNS), LiveTarget.noOptions());

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo(PAGE + "_777");
        assertThat(outcome.url()).isEqualTo("https://www.facebook.com/" + PAGE + "/posts/777/");
        for (Post.Media photo : List.of(BREAD, BUNS)) {
            fake.verifyThat(
                    1,
                    postRequestedFor(urlPathEqualTo(GRAPH + "/photos"))
                            .withFormParam("url", equalTo(photo.url()))
                            .withFormParam("published", equalTo("false"))
                            .withFormParam("message", absent()));
        }
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(GRAPH + "/feed"))
                        .withHeader("Authorization", equalTo("Bearer EAAG-page-token"))
                        .withFormParam("message", equalTo("Fresh today"))
                        .withFormParam("attached_media[0]", equalTo("{\"media_fbid\":\"p-1\"}"))
                        .withFormParam("attached_media[1]", equalTo("{\"media_fbid\":\"p-2\"}")));
    }

    @Test
    void aPhotoFacebookRefusesFailsThePostBeforeAnythingIsPosted() {
        photoUploaded(BREAD, "p-1");
        fake.register(post(urlPathEqualTo(GRAPH + "/photos"))
                .withFormParam("url", equalTo(BUNS.url()))
                .willReturn(aResponse()
                        .withStatus(400)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"error\":{\"message\":\"(#324) Requires upload file\",\"type\":\"OAuthException\","
                                + "\"code\":324}}")));

        PublishOutcome outcome = publish("Fresh today", List.of(BREAD, BUNS), LiveTarget.noOptions());

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("photo 2").contains("Requires upload file");
        fake.verifyThat(0, postRequestedFor(urlPathEqualTo(GRAPH + "/feed")));
    }

    @Test
    void aReelStartsASessionHandsTheVideoOverByItsUrlAndFinishesPublished() {
        sessionStarted("video_reels", "v-1");
        fake.register(post(urlPathEqualTo(GRAPH + "/video_reels"))
                .withFormParam("upload_phase", equalTo("finish"))
                .willReturn(okJson("{\"success\":true}")));

        PublishOutcome outcome =
                publish("Kneading", List.of(KNEAD), LiveTarget.noOptions().put("format", "reel"));

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("v-1");
        assertThat(outcome.url()).isEqualTo("https://www.facebook.com/reel/v-1/");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(UPLOAD + "v-1"))
                        .withHeader("Authorization", equalTo("OAuth EAAG-page-token"))
                        .withHeader("file_url", equalTo(KNEAD.url())));
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(GRAPH + "/video_reels"))
                        .withFormParam("upload_phase", equalTo("finish"))
                        .withFormParam("video_id", equalTo("v-1"))
                        .withFormParam("video_state", equalTo("PUBLISHED"))
                        .withFormParam("description", equalTo("Kneading")));
    }

    @Test
    void aReelWhoseFinishAnswerWasLostIsFoundAmongThePagesReelsByItsVideoId() {
        sessionStarted("video_reels", "v-2");
        fake.register(post(urlPathEqualTo(GRAPH + "/video_reels"))
                .withFormParam("upload_phase", equalTo("finish"))
                .willReturn(aResponse().withStatus(502)));
        ObjectNode reel = LiveTarget.noOptions().put("format", "reel");
        assertThat(publish("Kneading", List.of(KNEAD), reel).error().retryable())
                .isTrue();

        fake.register(get(urlPathEqualTo(GRAPH + "/video_reels"))
                .willReturn(okJson("{\"data\":[{\"id\":\"v-9\"},{\"id\":\"v-2\",\"description\":\"Kneading\"}]}")));
        PublishOutcome found = publish("Kneading", List.of(KNEAD), reel);

        assertThat(found.published()).isTrue();
        assertThat(found.providerPostId()).isEqualTo("v-2");
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(GRAPH + "/video_reels"))
                        .withFormParam("upload_phase", equalTo("finish")));
    }

    @Test
    void aPhotoStoryPublishesAnUnpublishedPhotoAndAVideoStoryItsSession() {
        photoUploaded(BREAD, "p-7");
        fake.register(post(urlPathEqualTo(GRAPH + "/photo_stories"))
                .withFormParam("photo_id", equalTo("p-7"))
                .willReturn(okJson("{\"success\":true,\"post_id\":\"s-1\"}")));
        ObjectNode story = LiveTarget.noOptions().put("format", "story");

        assertThat(publish("", List.of(BREAD), story).providerPostId()).isEqualTo("s-1");
        fake.verifyThat(
                1, postRequestedFor(urlPathEqualTo(GRAPH + "/photos")).withFormParam("published", equalTo("false")));

        target = new LiveTarget(Platform.FACEBOOK, PAGE, "EAAG-page-token");
        sessionStarted("video_stories", "v-3");
        fake.register(post(urlPathEqualTo(GRAPH + "/video_stories"))
                .withFormParam("upload_phase", equalTo("finish"))
                .withFormParam("video_id", equalTo("v-3"))
                .willReturn(okJson("{\"success\":true,\"post_id\":\"s-2\"}")));

        assertThat(publish("", List.of(KNEAD), story).providerPostId()).isEqualTo("s-2");
        fake.verifyThat(
                1, postRequestedFor(urlPathEqualTo(UPLOAD + "v-3")).withHeader("file_url", equalTo(KNEAD.url())));
    }
}
