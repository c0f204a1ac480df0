package dev.herald.delivery.provider.instagram;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.LiveTarget;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Instagram publisher against a local fake of the Instagram API with Instagram Login (decision 118). */
@QuarkusTest
@QuarkusTestResource(value = RealInfrastructure.class, initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        restrictToAnnotatedClass = true)
@QuarkusTestResource(value = FakePlatformApis.class, restrictToAnnotatedClass = true)
class InstagramPublisherTest {
    private static final String USER = "17841405822304914";
    private static final String IG = "/ig/v24.0/";
    private static final Post.Media IMAGE = new Post.Media("https://cdn.example.com/latte.jpg", Post.Media.IMAGE);

    @Inject
    InstagramPublisher publisher;

    private WireMock fake;
    private LiveTarget target;

    @BeforeEach
    void newTarget() {
        target = new LiveTarget(Platform.INSTAGRAM, USER, "IGAA-token");
        fake = target.fake;
    }

    private PublishOutcome publish(String text, Post.Media media, int attempt) {
        return publisher.publish(target.request(text, media, LiveTarget.noOptions(), attempt)).await().atMost(Duration.ofSeconds(30));
    }

    private void containerCreated(String containerId) {
        fake.register(post(urlPathEqualTo(IG + USER + "/media")).willReturn(okJson("{\"id\":\"" + containerId + "\"}")));
    }

    @Test
    void anImageIsPublishedOnceItsContainerHasFinishedProcessing() {
        containerCreated("c-100");
        fake.register(get(urlPathEqualTo(IG + "c-100")).inScenario("processing").whenScenarioStateIs(STARTED)
                .willReturn(okJson("{\"status_code\":\"IN_PROGRESS\",\"id\":\"c-100\"}")).willSetStateTo("finished"));
        fake.register(get(urlPathEqualTo(IG + "c-100")).inScenario("processing").whenScenarioStateIs("finished")
                .willReturn(okJson("{\"status_code\":\"FINISHED\",\"id\":\"c-100\"}")));
        fake.register(post(urlPathEqualTo(IG + USER + "/media_publish")).willReturn(okJson("{\"id\":\"m-200\"}")));
        fake.register(get(urlPathEqualTo(IG + "m-200")).willReturn(okJson("{\"permalink\":\"https://www.instagram.com/p/DAbC123/\",\"id\":\"m-200\"}")));

        PublishOutcome outcome = publish("Morning latte", IMAGE, 1);

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("m-200");
        assertThat(outcome.url()).isEqualTo("https://www.instagram.com/p/DAbC123/");
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(IG + USER + "/media"))
                .withHeader("Authorization", equalTo("Bearer IGAA-token"))
                .withRequestBody(equalToJson("{\"image_url\":\"https://cdn.example.com/latte.jpg\",\"caption\":\"Morning latte\"}")));
        fake.verifyThat(2, WireMock.getRequestedFor(urlPathEqualTo(IG + "c-100")));
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish"))
                .withRequestBody(equalToJson("{\"creation_id\":\"c-100\"}")));
    }

    @Test
    void aContainerInstagramCannotProcessIsAFinalRefusalAndNothingIsPublished() {
        containerCreated("c-bad");
        fake.register(get(urlPathEqualTo(IG + "c-bad")).willReturn(okJson("{\"status_code\":\"ERROR\",\"status\":\"Error: unsupported image format\"}")));

        PublishOutcome outcome = publish("Broken image", IMAGE, 1);

        assertThat(outcome.published()).isFalse();
        assertThat(outcome.error().retryable()).isFalse();
        assertThat(outcome.error().message()).contains("ERROR").contains("unsupported image format");
        assertThat(outcome.error().details()).containsEntry("container_status", "ERROR");
        assertThat(fake.find(postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish")))).isEmpty();
    }

    @Test
    void afterAServerErrorOnPublishTheNextAttemptFindsTheMediaByCaption() {
        containerCreated("c-1");
        fake.register(get(urlPathEqualTo(IG + "c-1")).willReturn(okJson("{\"status_code\":\"FINISHED\"}")));
        fake.register(post(urlPathEqualTo(IG + USER + "/media_publish")).willReturn(aResponse().withStatus(500)));
        assertThat(publish("Caption once", IMAGE, 1).error().retryable()).isTrue();

        fake.register(get(urlPathEqualTo(IG + USER + "/media")).willReturn(okJson("""
                {"data":[{"id":"m-9","caption":"Caption once","permalink":"https://www.instagram.com/p/XyZ/","timestamp":"2026-11-23T08:00:00+0000"}]}""")));
        PublishOutcome found = publish("Caption once", IMAGE, 2);

        assertThat(found.providerPostId()).isEqualTo("m-9");
        assertThat(found.url()).isEqualTo("https://www.instagram.com/p/XyZ/");
        assertThat(fake.find(postRequestedFor(urlPathEqualTo(IG + USER + "/media")))).hasSize(1);
        assertThat(fake.find(postRequestedFor(urlPathEqualTo(IG + USER + "/media_publish")))).hasSize(1);
    }

    @Test
    void reelsAreNotSentYet() {
        PublishOutcome outcome = publish("A reel", new Post.Media("https://cdn.example.com/reel.mp4", Post.Media.VIDEO), 1);

        assertThat(outcome.error().code()).isEqualTo("publisher_unavailable");
        assertThat(fake.find(postRequestedFor(WireMock.anyUrl()))).isEmpty();
    }
}
