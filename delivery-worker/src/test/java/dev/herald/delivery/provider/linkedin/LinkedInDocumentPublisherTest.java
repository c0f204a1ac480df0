package dev.herald.delivery.provider.linkedin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * LinkedIn document (PDF) posts against WireMock standing in for LinkedIn's Documents and Posts APIs and its upload
 * URL, a media host generating the file's bytes, and usage-service's media reservations.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
class LinkedInDocumentPublisherTest extends UploadingPublisherTest {
    private static final String ORGANIZATION = "urn:li:organization:2414183";
    private static final String DOCUMENT_URN = "urn:li:document:D5F10AQHdoc4yQ";
    private static final long DOCUMENT_SIZE = 912_345;

    @Inject
    LinkedInPublisher publisher;

    @BeforeEach
    void newTarget() {
        newTarget(Platform.LINKEDIN, ORGANIZATION, "li-token-1");
    }

    private Post.Media document() {
        return new Post.Media(media.file(target.postId + "-q3-report.pdf", DOCUMENT_SIZE), Post.Media.DOCUMENT);
    }

    private PublishOutcome publish(String text, Post.Media file, ObjectNode options, int attempt) {
        return publisher
                .publish(target.request(text, file, options, attempt))
                .await()
                .atMost(Duration.ofSeconds(60));
    }

    private void documentUploadOpens() {
        String uploadUrl = "http://127.0.0.1:" + Integer.getInteger("herald.test.fake-platforms.port")
                + "/dms-uploads/document-1?ca=vector_feedshare";
        fake.register(post(urlEqualTo("/rest/documents?action=initializeUpload"))
                .willReturn(okJson("""
                {"value":{"uploadUrlExpiresAt":1764061200000,"uploadUrl":"%s","document":"%s"}}""".formatted(uploadUrl, DOCUMENT_URN))));
        fake.register(put(urlPathEqualTo("/dms-uploads/document-1"))
                .willReturn(aResponse().withStatus(201)));
    }

    @Test
    void aDocumentIsUploadedThroughTheDocumentsApiThenPostedWithItsUrnAndTitleAndItsBytesAreMetered() {
        documentUploadOpens();
        fake.register(post(urlEqualTo("/rest/posts"))
                .willReturn(aResponse().withStatus(201).withHeader("x-restli-id", "urn:li:share:7100000000000000031")));

        PublishOutcome outcome =
                publish("Our Q3 report", document(), LiveTarget.noOptions().put("title", "Q3 report: the numbers"), 1);

        assertThat(outcome.published()).isTrue();
        assertThat(outcome.providerPostId()).isEqualTo("urn:li:share:7100000000000000031");
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo("/rest/documents?action=initializeUpload"))
                        .withHeader("Authorization", equalTo("Bearer li-token-1"))
                        .withHeader("LinkedIn-Version", equalTo("202601"))
                        .withHeader("X-Restli-Protocol-Version", equalTo("2.0.0"))
                        .withRequestBody(equalToJson(
                                "{\"initializeUploadRequest\":{\"owner\":\"urn:li:organization:2414183\"}}")));
        List<LoggedRequest> uploads = fake.find(putRequestedFor(urlPathEqualTo("/dms-uploads/document-1")));
        assertThat(uploads).hasSize(1);
        assertThat(uploads.get(0).getHeader("Authorization")).isEqualTo("Bearer li-token-1");
        assertThat(uploads.get(0).getHeader("Content-Length")).isEqualTo(Long.toString(DOCUMENT_SIZE));
        assertThat(GeneratedMedia.sha256(uploads.get(0).getBody())).isEqualTo(GeneratedMedia.sha256(0, DOCUMENT_SIZE));
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/rest/posts")).withRequestBody(equalToJson("""
                        {"author":"urn:li:organization:2414183","commentary":"Our Q3 report","visibility":"PUBLIC",
                         "distribution":{"feedDistribution":"MAIN_FEED","targetEntities":[],"thirdPartyDistributionChannels":[]},
                         "content":{"media":{"title":"Q3 report: the numbers","id":"%s"}},
                         "lifecycleState":"PUBLISHED","isReshareDisabledByAuthor":false}""".formatted(
                        DOCUMENT_URN))));
        List<FakeUsageService.MediaCall> calls = FakeUsageService.mediaCalls(reservationId);
        assertThat(calls).extracting(FakeUsageService.MediaCall::kind).containsExactly("reserve", "consume");
        assertThat(calls.get(0).body().get("meter").asText()).isEqualTo("media_bytes");
        assertThat(calls.get(0).body().get("units").asLong()).isEqualTo(DOCUMENT_SIZE);
    }

    @Test
    void aDocumentPostWhoseAnswerWasLostIsFoundAmongTheAuthorsPostsAndNeitherUploadedNorPostedAgain() {
        documentUploadOpens();
        fake.register(post(urlEqualTo("/rest/posts")).willReturn(aResponse().withStatus(504)));
        Post.Media document = document();

        PublishOutcome unknown = publish("Did the deck post?", document, LiveTarget.noOptions(), 1);

        assertThat(unknown.published()).isFalse();
        assertThat(unknown.mayHavePublished()).isTrue();
        fake.verifyThat(
                1,
                postRequestedFor(urlEqualTo("/rest/posts"))
                        .withRequestBody(equalToJson(
                                "{\"content\":{\"media\":{\"title\":\"%s-q3-report\",\"id\":\"%s\"}}}"
                                        .formatted(target.postId, DOCUMENT_URN),
                                true,
                                true)));

        fake.register(get(urlPathEqualTo("/rest/posts")).willReturn(okJson("""
                {"paging":{"start":0,"count":20},"elements":[
                  {"id":"urn:li:ugcPost:7100000000000000032","author":"%s","commentary":"Did the deck post?",
                   "content":{"media":{"id":"%s"}},"lifecycleState":"PUBLISHED"}]}""".formatted(ORGANIZATION, DOCUMENT_URN))));
        PublishOutcome found = publish("Did the deck post?", document, LiveTarget.noOptions(), 2);

        assertThat(found.published()).isTrue();
        assertThat(found.providerPostId()).isEqualTo("urn:li:ugcPost:7100000000000000032");
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/rest/documents?action=initializeUpload")));
        fake.verifyThat(1, postRequestedFor(urlEqualTo("/rest/posts")));
        fake.verifyThat(1, getRequestedFor(urlPathEqualTo("/rest/posts")).withQueryParam("q", equalTo("author")));
        // The second attempt reserves again under the destination's one id (charged once), then consumes it.
        assertThat(mediaCallKinds()).containsExactly("reserve", "reserve", "consume");
    }

    @Test
    void aDocumentsTitleIsTheOptionElseTheFilesNameWithoutItsExtension() {
        assertThat(LinkedInRequests.documentTitle(" Deck ", "https://cdn.example.com/a/b.pdf"))
                .isEqualTo("Deck");
        assertThat(LinkedInRequests.documentTitle(null, "https://cdn.example.com/a/Q3%20report.pdf"))
                .isEqualTo("Q3 report");
        assertThat(LinkedInRequests.documentTitle(null, "https://cdn.example.com/"))
                .isEqualTo("Document");
    }
}
