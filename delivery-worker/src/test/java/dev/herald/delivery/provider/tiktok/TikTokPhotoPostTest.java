package dev.herald.delivery.provider.tiktok;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.support.DeliveryTestSupport;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.FakeUsageService;
import dev.herald.delivery.support.UploadingPublisherTest;
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
 * TikTok photo posts against a WireMock fake of the Content Posting API (creator info, content init, status fetch, as
 * TikTok documents them): TikTok pulls the photos from their URLs, so nothing goes through media ingest.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
class TikTokPhotoPostTest extends UploadingPublisherTest {
    private static final String CREATOR_INFO = "/v2/post/publish/creator_info/query/";
    private static final String CONTENT_INIT = "/v2/post/publish/content/init/";
    private static final String STATUS = "/v2/post/publish/status/fetch/";
    private static final String PUBLISH_ID = "p_pub_url~v2.7312345678901239999";
    private static final List<Post.Media> PHOTOS = List.of(
            new Post.Media("https://media.acme.example/stall-1.jpg", Post.Media.IMAGE),
            new Post.Media("https://media.acme.example/stall-2.jpg", Post.Media.IMAGE),
            new Post.Media("https://media.acme.example/stall-3.jpg", Post.Media.IMAGE));

    @Inject
    TikTokPublisher publisher;

    @BeforeEach
    void newTarget() {
        newTarget(Platform.TIKTOK, "-000OBT5Ct_JuMQ8UZoTjPMEu8Pj3LYI7Q7K", "act.example12345");
        TikTokPublisherTest.creator(fake, "[\"PUBLIC_TO_EVERYONE\",\"SELF_ONLY\"]", false);
    }

    private static ObjectNode options() {
        return DeliveryTestSupport.JSON
                .createObjectNode()
                .put("privacy_level", "PUBLIC_TO_EVERYONE")
                .put("title", "Market day")
                .put("auto_add_music", true)
                .put("photo_cover_index", 1);
    }

    private PublishOutcome publish(List<Post.Media> items, int attempt) {
        return publisher
                .publish(target.requestWithItems("Three stalls #market", items, options(), attempt))
                .await()
                .atMost(Duration.ofSeconds(30));
    }

    private void status(String data) {
        fake.register(post(urlEqualTo(STATUS))
                .withRequestBody(equalToJson("{\"publish_id\":\"" + PUBLISH_ID + "\"}"))
                .willReturn(okJson(TikTokPublisherTest.ok(data))));
    }

    @Test
    void photosArePulledFromTheirUrlsInOrderAndPublishedOnceTikTokHasThem() {
        fake.register(post(urlEqualTo(CONTENT_INIT))
                .willReturn(okJson(TikTokPublisherTest.ok("{\"publish_id\":\"" + PUBLISH_ID + "\"}"))));

        PublishOutcome started = publish(PHOTOS, 1);

        assertThat(started.isLater()).isTrue();
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo(CONTENT_INIT))
                        .withHeader("Authorization", equalTo("Bearer act.example12345"))
                        .withRequestBody(equalToJson("""
                        {"media_type":"PHOTO","post_mode":"DIRECT_POST",
                         "post_info":{"title":"Market day","description":"Three stalls #market",
                                      "privacy_level":"PUBLIC_TO_EVERYONE","disable_comment":false,"auto_add_music":true},
                         "source_info":{"source":"PULL_FROM_URL","photo_cover_index":1,
                                        "photo_images":["https://media.acme.example/stall-1.jpg",
                                                        "https://media.acme.example/stall-2.jpg",
                                                        "https://media.acme.example/stall-3.jpg"]}}""")));

        status("{\"status\":\"PROCESSING_DOWNLOAD\"}");
        assertThat(publish(PHOTOS, 2).isLater()).isTrue();
        status("{\"status\":\"PUBLISH_COMPLETE\",\"publicaly_available_post_id\":[7312345678901230042]}");
        PublishOutcome published = publish(PHOTOS, 3);

        assertThat(published.published()).isTrue();
        assertThat(published.providerPostId()).isEqualTo("7312345678901230042");
        assertThat(published.url()).isEqualTo("https://www.tiktok.com/@acme/photo/7312345678901230042");
        fake.verifyThat(1, postRequestedFor(urlEqualTo(CONTENT_INIT)));
        // TikTok fetched the photos itself: no byte went through Herald, nothing was metered as media.
        assertThat(mediaCallKinds()).isEmpty();
        assertThat(media.requests()).isEmpty();
    }

    @Test
    void aLostInitAnswerFailsUnconfirmedRatherThanRiskASecondPost() {
        fake.register(post(urlEqualTo(CONTENT_INIT)).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertThatThrownBy(() -> publish(PHOTOS, 1)).hasRootCauseInstanceOf(java.net.SocketException.class);

        PublishOutcome next = publish(PHOTOS, 2);

        assertThat(next.error().code()).isEqualTo("publication_unconfirmed");
        assertThat(next.error().retryable()).isFalse();
        fake.verifyThat(1, postRequestedFor(urlEqualTo(CONTENT_INIT)));
    }

    @Test
    void aVideoAmongThePhotosIsRefusedBeforeTikTokIsAsked() {
        List<Post.Media> mixed =
                List.of(PHOTOS.get(0), new Post.Media("https://media.acme.example/stall.mp4", Post.Media.VIDEO));

        PublishOutcome outcome = publish(mixed, 1);

        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().details()).containsEntry("media_count", 2);
        assertThat(fake.find(WireMock.postRequestedFor(urlEqualTo(CREATOR_INFO))))
                .isEmpty();
        assertThat(FakeUsageService.mediaCallKinds(reservationId)).isEmpty();
    }
}
