package dev.herald.delivery.provider.linkedin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.FakeUsageService;
import dev.herald.delivery.support.GeneratedMedia;
import dev.herald.delivery.support.LiveTarget;
import dev.herald.delivery.support.UploadingPublisherTest;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * LinkedIn multi-image posts (MultiImage: 2 to 20 images) against WireMock standing in for LinkedIn's Images and Posts
 * APIs and its upload URLs, a media host generating the files, and usage-service's media reservations.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
class LinkedInMultiImagePublisherTest extends UploadingPublisherTest {
    private static final String ORGANIZATION = "urn:li:organization:2414183";
    /** Three images of different sizes, so the order of their bytes shows. */
    private static final long[] SIZES = {120_001, 250_002, 80_003};

    @Inject
    LinkedInPublisher publisher;

    @BeforeEach
    void newTarget() {
        newTarget(Platform.LINKEDIN, ORGANIZATION, "li-token-1");
    }

    private List<Post.Media> images() {
        List<Post.Media> images = new ArrayList<>();
        for (int i = 0; i < SIZES.length; i++) {
            images.add(new Post.Media(media.file(target.postId + "-" + i + ".jpg", SIZES[i]), Post.Media.IMAGE));
        }
        return images;
    }

    private static String urn(int i) {
        return "urn:li:image:C4E10AQMulti" + i;
    }

    /** Each initializeUpload answers the next image's URN and upload URL; each upload URL takes its bytes. */
    private void imageUploadsOpen() {
        String state = Scenario.STARTED;
        for (int i = 0; i < SIZES.length; i++) {
            String next = "image-" + (i + 1);
            fake.register(post(urlEqualTo("/rest/images?action=initializeUpload"))
                    .inScenario("uploads")
                    .whenScenarioStateIs(state)
                    .willSetStateTo(next)
                    .willReturn(okJson("""
                            {"value":{"uploadUrlExpiresAt":1764061200000,"uploadUrl":"%s","image":"%s"}}""".formatted(
                                    "http://127.0.0.1:" + Integer.getInteger("herald.test.fake-platforms.port")
                                            + "/dms-uploads/multi-" + i,
                                    urn(i)))));
            fake.register(put(urlPathEqualTo("/dms-uploads/multi-" + i))
                    .willReturn(aResponse().withStatus(201)));
            state = next;
        }
    }

    private PublishOutcome publish(List<Post.Media> items) {
        return publisher
                .publish(target.requestWithItems("A week in pictures", items, LiveTarget.noOptions(), 1))
                .await()
                .atMost(Duration.ofSeconds(60));
    }

    @Test
    void everyImageIsUploadedInOrderThenPostedAsMultiImageAndAllTheirBytesAreMetered() {
        imageUploadsOpen();
        fake.register(post(urlEqualTo("/rest/posts"))
                .willReturn(aResponse().withStatus(201).withHeader("x-restli-id", "urn:li:share:7100000000000000031")));

        PublishOutcome outcome = publish(images());

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("urn:li:share:7100000000000000031");
        fake.verifyThat(
                3,
                postRequestedFor(urlEqualTo("/rest/images?action=initializeUpload"))
                        .withRequestBody(equalToJson(
                                "{\"initializeUploadRequest\":{\"owner\":\"urn:li:organization:2414183\"}}")));
        for (int i = 0; i < SIZES.length; i++) {
            List<LoggedRequest> uploads = fake.find(putRequestedFor(urlPathEqualTo("/dms-uploads/multi-" + i)));
            assertThat(uploads).hasSize(1);
            assertThat(uploads.get(0).getHeader("Content-Length")).isEqualTo(Long.toString(SIZES[i]));
            assertThat(GeneratedMedia.sha256(uploads.get(0).getBody())).isEqualTo(GeneratedMedia.sha256(0, SIZES[i]));
        }
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/rest/posts")).withRequestBody(equalToJson("""
                {"author":"urn:li:organization:2414183","commentary":"A week in pictures","visibility":"PUBLIC",
                 "distribution":{"feedDistribution":"MAIN_FEED","targetEntities":[],"thirdPartyDistributionChannels":[]},
                 "content":{"multiImage":{"images":[{"id":"%s"},{"id":"%s"},{"id":"%s"}]}},
                 "lifecycleState":"PUBLISHED","isReshareDisabledByAuthor":false}""".formatted(
                        urn(0), urn(1), urn(2)))));
        // One reservation for the destination, of every item's bytes, consumed with the post.
        List<FakeUsageService.MediaCall> calls = FakeUsageService.mediaCalls(reservationId);
        assertThat(calls).extracting(FakeUsageService.MediaCall::kind).containsExactly("reserve", "consume");
        assertThat(calls.get(0).body().get("units").asLong()).isEqualTo(SIZES[0] + SIZES[1] + SIZES[2]);
    }

    @Test
    void anImageLinkedInRefusesStopsThePostAndReleasesTheReservation() {
        imageUploadsOpen();
        fake.register(put(urlPathEqualTo("/dms-uploads/multi-1"))
                .willReturn(aResponse().withStatus(400)));

        PublishOutcome outcome = publish(images());

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("LinkedIn refused the image's bytes");
        // The third image was never started, and nothing was posted.
        fake.verifyThat(2, postRequestedFor(urlEqualTo("/rest/images?action=initializeUpload")));
        assertThat(fake.find(putRequestedFor(urlPathEqualTo("/dms-uploads/multi-2"))))
                .isEmpty();
        assertThat(fake.find(postRequestedFor(urlEqualTo("/rest/posts")))).isEmpty();
        assertThat(mediaCallKinds()).containsExactly("reserve", "release");
    }

    @Test
    void aVideoAmongSeveralItemsIsRefusedBeforeAnythingMoves() {
        List<Post.Media> items = new ArrayList<>(images());
        items.add(new Post.Media(media.file(target.postId + ".mp4", 5_000), Post.Media.VIDEO));

        PublishOutcome outcome = publish(items);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().details()).containsEntry("media_count", 4);
        assertThat(fake.find(WireMock.anyRequestedFor(WireMock.anyUrl()))).isEmpty();
        assertThat(mediaCallKinds()).isEmpty();
    }
}
