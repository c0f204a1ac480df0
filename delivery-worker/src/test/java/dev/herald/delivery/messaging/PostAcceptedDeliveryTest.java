package dev.herald.delivery.messaging;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.delivery.support.DeliveryTestSupport.accepted;
import static dev.herald.delivery.support.DeliveryTestSupport.await;
import static dev.herald.delivery.support.DeliveryTestSupport.completions;
import static dev.herald.delivery.support.DeliveryTestSupport.deferrals;
import static dev.herald.delivery.support.DeliveryTestSupport.delivery;
import static dev.herald.delivery.support.DeliveryTestSupport.deliveryStatus;
import static dev.herald.delivery.support.DeliveryTestSupport.onlyCompletion;
import static dev.herald.delivery.support.DeliveryTestSupport.rows;
import static dev.herald.delivery.support.DeliveryTestSupport.sandboxPublications;
import static dev.herald.delivery.support.DeliveryTestSupport.sandboxPublishCalls;
import static dev.herald.delivery.support.DeliveryTestSupport.send;
import static dev.herald.delivery.support.DeliveryTestSupport.sendAll;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.tracing.TraceParents;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.UsageReservation;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.SandboxPublisher;
import dev.herald.delivery.support.DeliveryTestSupport.Target;
import dev.herald.delivery.support.FakePlatformApis;
import dev.herald.delivery.support.FakeUsageService;
import dev.herald.delivery.support.GeneratedMedia;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TopicReader;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * post.accepted in, target.completed out, through the real broker and database: the sandbox provider's steerable
 * outcomes (DESIGN section 3), redelivered events, live targets, and the reservation check before every delivery
 * against a fake usage-service (a refusal fails the target with usage-service's code and details and nothing is
 * published; a usage-service that cannot answer only postpones the delivery).
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakePlatformApis.class, scope = TestResourceScope.MATCHING_RESOURCES)
class PostAcceptedDeliveryTest {
    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @BeforeEach
    void startFakes() {
        FakeUsageService.ensureStarted();
    }

    @Test
    void aTestAccountIsPublishedWithTheSandboxsPostIdAndUrl() throws Exception {
        Target target = Target.of(Platform.TIKTOK, "acme_tiktok");
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, target);
        String postId = event.post().id();
        Instant before = Instant.now();

        send(event);

        JsonNode completed = onlyCompletion(postId, target.accountId());
        String expectedPostId = SandboxPublisher.providerPostIdOf(PublishRequest.tokenOf(postId, target.accountId()));
        assertThat(completed.get("type").asText()).isEqualTo("target.completed");
        assertThat(completed.get("event_id").asText()).matches("^evt_[a-f0-9]{24}$");
        assertThat(completed.get("workspace_id").asText()).isEqualTo(workspace);
        assertThat(completed.get("mode").asText()).isEqualTo("test");
        assertThat(completed.get("post_id").asText()).isEqualTo(postId);
        assertThat(completed.get("reservation_id").asText()).isEqualTo(target.reservationId(postId));
        assertThat(completed.get("status").asText()).isEqualTo("published");
        assertThat(completed.get("attempts").asInt()).isEqualTo(1);
        assertThat(completed.get("provider_post_id").asText())
                .isEqualTo(expectedPostId)
                .matches("^sbx_[a-f0-9]{24}$");
        assertThat(completed.get("url").asText()).isEqualTo("https://sandbox.herald.invalid/tiktok/" + expectedPostId);
        assertThat(completed.get("error").isNull()).isTrue();
        assertThat(Instant.parse(completed.get("completed_at").asText())).isAfterOrEqualTo(before.minusSeconds(1));

        Map<String, Object> row = delivery(postId, target.accountId());
        assertThat(row)
                .containsEntry("status", "published")
                .containsEntry("attempts", 1)
                .containsEntry("provider_post_id", expectedPostId)
                .containsEntry("text", "Hello from Herald")
                .containsEntry("account_username", "acme_tiktok")
                .containsEntry("lease_token", null);
        assertThat(String.valueOf(row.get("media")))
                .isEqualTo("[{\"url\": \"https://cdn.example.com/clip.mp4\", \"type\": \"video\"}]");
        assertThat(sandboxPublications(postId, target.accountId()))
                .singleElement()
                .satisfies(publication -> assertThat(publication)
                        .containsEntry("publish_calls", 1)
                        .containsEntry("provider_post_id", expectedPostId));

        // The check asked usage-service about this reservation, as this tenant, without the live capacity check.
        List<FakeUsageService.Call> calls = FakeUsageService.calls(target.reservationId(postId));
        assertThat(calls).singleElement().satisfies(call -> {
            assertThat(call.claims().get("wid").asText()).isEqualTo(workspace);
            assertThat(call.claims().get("mode").asText()).isEqualTo("test");
            assertThat(call.claims().get("sub").asText()).isEqualTo("delivery-worker");
            assertThat(call.body().get("require_account_capacity").asBoolean()).isFalse();
            assertThat(call.body().get("at").asText()).isNotBlank();
        });
    }

    @Test
    void aDeliveryContinuesTheTraceOfItsPostAndPassesItOnWithItsOutcome() throws Exception {
        Target target = Target.of(Platform.LINKEDIN, "acme_traced");
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, target);
        String postId = event.post().id();
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String acceptedIn = "00-" + traceId + "-00f067aa0ba902b7-00";

        send(event, acceptedIn);

        List<ConsumerRecord<String, String>> completed =
                TopicReader.recordsKeyed(Topics.TARGET_COMPLETED, postId, 1, Duration.ofMinutes(1));
        assertThat(completed).hasSize(1);
        String passedOn = TraceParents.header(completed.get(0).headers());
        assertThat(TraceParents.traceId(passedOn))
                .as("target.completed's traceparent")
                .isEqualTo(traceId);
        assertThat(passedOn).as("the attempt is a span of its own").isNotEqualTo(acceptedIn);
        // Kept with the delivery, so a retry by any worker continues the same trace.
        assertThat(delivery(postId, target.accountId())).containsEntry("trace_parent", acceptedIn);
        assertThat(FakeUsageService.calls(target.reservationId(postId)))
                .singleElement()
                .satisfies(call -> assertThat(TraceParents.traceId(call.traceParent()))
                        .as("the usage check's traceparent")
                        .isEqualTo(traceId));

        assertThat(given().get("/q/metrics")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString()
                        .lines())
                .anyMatch(line -> line.startsWith(
                        "herald_deliveries_total{mode=\"test\",outcome=\"published\",platform=\"linkedin\"}"))
                .anyMatch(
                        line -> line.startsWith(
                                "herald_delivery_attempts_seconds_count{mode=\"test\",outcome=\"published\",platform=\"linkedin\"}"));
    }

    @Test
    void eachTargetOfAPostKeepsOnlyItsOwnPlatformsOptions() throws Exception {
        Target youtube = Target.of(Platform.YOUTUBE, "acme_channel");
        Target pinterest = Target.of(Platform.PINTEREST, "acme_pins");
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, youtube, pinterest);
        String postId = event.post().id();

        send(event);

        List<JsonNode> completed = completions(postId, 2);
        assertThat(completed)
                .extracting(e -> e.get("account_id").asText())
                .containsExactlyInAnyOrder(youtube.accountId(), pinterest.accountId());
        assertThat(completed)
                .allSatisfy(e -> assertThat(e.get("status").asText()).isEqualTo("published"));
        assertThat(rows(
                                "select platform_options::text as options from deliveries where post_id = ? and account_id = ?",
                                postId,
                                youtube.accountId())
                        .get(0)
                        .get("options")
                        .toString())
                .isEqualTo("{\"made_for_kids\": false, \"privacy_status\": \"public\"}");
        assertThat(rows(
                                "select platform_options::text as options from deliveries where post_id = ? and account_id = ?",
                                postId,
                                pinterest.accountId())
                        .get(0)
                        .get("options")
                        .toString())
                .isEqualTo("{}");
    }

    @Test
    void aFailAccountFailsAtOnceWithANonRetryableProviderError() throws Exception {
        Target target = Target.of(Platform.INSTAGRAM, "fail_always");
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, target);

        send(event);

        JsonNode completed = onlyCompletion(event.post().id(), target.accountId());
        assertThat(completed.get("status").asText()).isEqualTo("failed");
        assertThat(completed.get("attempts").asInt()).isEqualTo(1);
        assertThat(completed.get("provider_post_id").isNull()).isTrue();
        assertThat(completed.get("url").isNull()).isTrue();
        assertThat(completed.get("error").get("code").asText()).isEqualTo("provider_error");
        assertThat(completed.get("error").get("retryable").asBoolean()).isFalse();
        assertThat(completed.get("error").get("message").asText()).contains("fail_");
        assertThat(completed.get("error").get("details").isObject()).isTrue();
        assertThat(sandboxPublications(event.post().id(), target.accountId()))
                .singleElement()
                .satisfies(publication -> assertThat(publication)
                        .containsEntry("publish_calls", 1)
                        .containsEntry("provider_post_id", null));
    }

    @Test
    void aFlakyAccountIsPublishedOnItsSecondAttempt() throws Exception {
        Target target = Target.of(Platform.FACEBOOK, "flaky_page");
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, target);

        send(event);

        JsonNode completed = onlyCompletion(event.post().id(), target.accountId());
        assertThat(completed.get("status").asText()).isEqualTo("published");
        assertThat(completed.get("attempts").asInt()).isEqualTo(2);
        assertThat(completed.get("provider_post_id").asText()).startsWith("sbx_");
        assertThat(sandboxPublications(event.post().id(), target.accountId()))
                .singleElement()
                .satisfies(publication -> assertThat(publication).containsEntry("publish_calls", 2));
        // The failed first call and the publishing second are both on record; only the second has a post.
        assertThat(sandboxPublishCalls(event.post().id(), target.accountId()))
                .extracting(call -> call.get("attempt"), call -> call.get("provider_post_id"))
                .containsExactly(
                        tuple(1, null),
                        tuple(2, completed.get("provider_post_id").asText()));
        // Each attempt asked usage-service first.
        assertThat(FakeUsageService.calls(target.reservationId(event.post().id())))
                .hasSize(2);
    }

    @Test
    void aSlowAccountIsPublishedAfterTheSandboxsDelay() throws Exception {
        Target target = Target.of(Platform.LINKEDIN, "slow_member");
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, target);
        long started = System.nanoTime();

        send(event);

        JsonNode completed = onlyCompletion(event.post().id(), target.accountId());
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(completed.get("status").asText()).isEqualTo("published");
        assertThat(completed.get("attempts").asInt()).isEqualTo(1);
    }

    @Test
    void theSameEventDeliveredTwiceIsDeliveredOnce() throws Exception {
        Target target = Target.of(Platform.TIKTOK, "twice_told");
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, target);
        String postId = event.post().id();

        // At least once, as the outbox relay promises: the second copy must change nothing.
        send(event);
        send(event);
        // The same post handed over again under a new event id (posts-service re-sent it) is no new delivery either.
        send(new PostAcceptedEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                event.type(),
                event.occurredAt(),
                event.workspaceId(),
                event.mode(),
                event.post(),
                event.deliveries()));

        JsonNode completed = onlyCompletion(postId, target.accountId());
        assertThat(completed.get("status").asText()).isEqualTo("published");
        assertThat(rows("select * from deliveries where post_id = ?", postId)).hasSize(1);
        assertThat(sandboxPublications(postId, target.accountId()))
                .singleElement()
                .satisfies(publication -> assertThat(publication).containsEntry("publish_calls", 1));
        assertThat(sandboxPublishCalls(postId, target.accountId()))
                .singleElement()
                .satisfies(call -> assertThat(call).containsEntry("attempt", 1));
        assertThat(rows("select * from processed_events where event_id = ?", event.eventId()))
                .hasSize(1);
        assertThat(rows("select * from outbox where message_key = ?", postId)).hasSize(1);
    }

    @Test
    void eventsPolledTogetherEachDeliverTheirOwnPostOnce() throws Exception {
        List<PostAcceptedEvent> events = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            // A workspace of its own per post, so that a row joined to another event's post would show.
            String owner = ResourceIds.newId(IdPrefix.WORKSPACE);
            events.add(accepted(
                    owner,
                    Mode.TEST,
                    "Post number " + i,
                    new Post.Media("https://cdn.example.com/clip.mp4", Post.Media.VIDEO),
                    Target.of(Platform.TIKTOK, "polled_" + i),
                    Target.of(Platform.LINKEDIN, "polled_li_" + i)));
        }
        List<PostAcceptedEvent> sent = new ArrayList<>(events);
        sent.add(events.get(3));
        PostAcceptedEvent again = events.get(7);
        sent.add(new PostAcceptedEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                again.type(),
                again.occurredAt(),
                again.workspaceId(),
                again.mode(),
                again.post(),
                again.deliveries()));

        sendAll(sent);

        for (PostAcceptedEvent event : events) {
            String postId = event.post().id();
            assertThat(completions(postId, 2)).hasSize(2);
            assertThat(rows("select workspace_id, text, source_event_id from deliveries where post_id = ?", postId))
                    .hasSize(2)
                    .allSatisfy(row -> assertThat(row)
                            .containsEntry("workspace_id", event.workspaceId())
                            .containsEntry("text", event.post().text())
                            .containsEntry("source_event_id", event.eventId()));
            for (PostAcceptedEvent.Delivery delivery : event.deliveries()) {
                assertThat(delivery(postId, delivery.accountId()))
                        .containsEntry("account_username", delivery.accountUsername())
                        .containsEntry("reservation_id", UsageReservation.publicationId(postId, delivery.accountId()));
            }
        }
        assertThat(rows(
                        "select * from processed_events where event_id = any(string_to_array(?, ','))",
                        String.join(
                                ",",
                                sent.stream().map(PostAcceptedEvent::eventId).toList())))
                .hasSize(13);
    }

    @Test
    void aLiveYouTubeUploadLongerThanTheDeliveryLeaseKeepsItsLeaseAndIsPublishedOnce() throws Exception {
        // The tests' lease is 10 s and their publish timeout 5 s; this upload takes 12 s (an ingesting publisher renews
        // its lease while bytes move).
        Target target = Target.of(Platform.YOUTUBE, "acme_live_channel");
        try (GeneratedMedia media = new GeneratedMedia()) {
            PostAcceptedEvent event = accepted(
                    workspace,
                    Mode.LIVE,
                    "Launch video",
                    new Post.Media(media.file("launch.mp4", 2_000_000), Post.Media.VIDEO),
                    target);
            String postId = event.post().id();
            String token = "ya29-" + postId;
            var fake = FakePlatformApis.client();
            fake.register(post(urlPathEqualTo("/internal/accounts/" + target.accountId() + "/access-token"))
                    .willReturn(okJson("""
                            {"data":{"account_id":"%s","platform":"youtube","external_id":"UC_live_channel",
                             "access_token":"%s","expires_at":null}}""".formatted(target.accountId(), token))));
            fake.register(post(urlPathEqualTo("/upload/youtube/v3/videos"))
                    .withHeader("Authorization", equalTo("Bearer " + token))
                    .willReturn(aResponse()
                            .withStatus(200)
                            .withHeader(
                                    "Location",
                                    "http://127.0.0.1:" + Integer.getInteger("herald.test.fake-platforms.port")
                                            + "/upload/youtube/v3/videos?uploadType=resumable&upload_id=" + postId)));
            fake.register(put(urlPathEqualTo("/upload/youtube/v3/videos"))
                    .withQueryParam("upload_id", equalTo(postId))
                    .willReturn(okJson("{\"id\":\"v-" + postId.substring(4, 15) + "\"}")
                            .withFixedDelay(12_000)));

            send(event);

            JsonNode completed = onlyCompletion(postId, target.accountId());
            assertThat(completed.get("status").asText()).isEqualTo("published");
            assertThat(completed.get("attempts").asInt()).isEqualTo(1);
            assertThat(completed.get("provider_post_id").asText()).isEqualTo("v-" + postId.substring(4, 15));
            assertThat(completed.get("url").asText())
                    .isEqualTo("https://www.youtube.com/watch?v=v-" + postId.substring(4, 15));
            fake.verifyThat(
                    1,
                    postRequestedFor(urlPathEqualTo("/upload/youtube/v3/videos"))
                            .withHeader("Authorization", equalTo("Bearer " + token)));
            fake.verifyThat(
                    1,
                    putRequestedFor(urlPathEqualTo("/upload/youtube/v3/videos"))
                            .withQueryParam("upload_id", equalTo(postId)));
            assertThat(FakeUsageService.mediaCalls(UsageReservation.mediaBytesId(postId, target.accountId())))
                    .extracting(FakeUsageService.MediaCall::kind)
                    .containsExactly("reserve", "consume");
        }
    }

    @Test
    void aLiveLinkedInTextPostIsPublishedThroughLinkedInAfterTheCapacityCheck() throws Exception {
        Target target = Target.of(Platform.LINKEDIN, "acme_live_page");
        PostAcceptedEvent event = accepted(workspace, Mode.LIVE, "Live on LinkedIn", null, target);
        String postId = event.post().id();
        var fake = FakePlatformApis.client();
        fake.register(post(urlPathEqualTo("/internal/accounts/" + target.accountId() + "/access-token"))
                .willReturn(okJson("""
                        {"data":{"account_id":"%s","platform":"linkedin","external_id":"urn:li:person:782bbtaQ",
                         "access_token":"li-live-token","expires_at":null}}""".formatted(target.accountId()))));
        fake.register(post(urlPathEqualTo("/rest/posts"))
                .withRequestBody(matchingJsonPath("$.author", equalTo("urn:li:person:782bbtaQ")))
                .willReturn(
                        aResponse().withStatus(201).withHeader("x-restli-id", "urn:li:share:" + postId.substring(4))));

        send(event);

        JsonNode completed = onlyCompletion(postId, target.accountId());
        assertThat(completed.get("mode").asText()).isEqualTo("live");
        assertThat(completed.get("status").asText()).isEqualTo("published");
        assertThat(completed.get("attempts").asInt()).isEqualTo(1);
        assertThat(completed.get("provider_post_id").asText()).isEqualTo("urn:li:share:" + postId.substring(4));
        assertThat(completed.get("url").asText())
                .isEqualTo("https://www.linkedin.com/feed/update/urn:li:share:" + postId.substring(4) + "/");
        assertThat(sandboxPublications(postId, target.accountId())).isEmpty();
        assertThat(rows(
                        "select state, calls from provider_publications where token = ?",
                        PublishRequest.tokenOf(postId, target.accountId())))
                .singleElement()
                .satisfies(row ->
                        assertThat(row).containsEntry("state", "published").containsEntry("calls", 1));
        assertThat(FakeUsageService.calls(target.reservationId(postId)))
                .singleElement()
                .satisfies(call -> assertThat(
                                call.body().get("require_account_capacity").asBoolean())
                        .isTrue());
    }

    @Test
    void whileAccountsServiceCannotGiveTheAccessTheLiveTargetIsPostponedWithoutSpendingAnAttempt() throws Exception {
        Target target = Target.of(Platform.LINKEDIN, "acme_live_member");
        PostAcceptedEvent event = accepted(workspace, Mode.LIVE, "Live while accounts-service is down", null, target);
        String postId = event.post().id();
        String accessPath = "/internal/accounts/" + target.accountId() + "/access-token";
        var fake = FakePlatformApis.client();
        fake.register(post(urlPathEqualTo(accessPath)).willReturn(aResponse().withStatus(503)));
        fake.register(post(urlPathEqualTo("/rest/posts"))
                .willReturn(
                        aResponse().withStatus(201).withHeader("x-restli-id", "urn:li:share:" + postId.substring(4))));

        send(event);

        await("the delivery was postponed twice", () -> deferrals(postId, target.accountId()) >= 2);
        Map<String, Object> waiting = delivery(postId, target.accountId());
        assertThat(waiting.get("status")).isIn("pending", "publishing");
        // Asked accounts-service, never LinkedIn, and the attempts it could not make are not counted.
        assertThat(waiting).containsEntry("completed_at", null);
        assertThat((Integer) waiting.get("attempts")).isLessThanOrEqualTo(1);
        assertThat(fake.find(postRequestedFor(urlPathEqualTo("/rest/posts"))
                        .withRequestBody(matchingJsonPath(
                                "$.commentary", equalTo(event.post().text())))))
                .isEmpty();
        assertThat(completions(postId, 1, Duration.ofSeconds(1))).isEmpty();

        fake.register(post(urlPathEqualTo(accessPath)).willReturn(okJson("""
                {"data":{"account_id":"%s","platform":"linkedin","external_id":"urn:li:person:782bbtaQ",
                 "access_token":"li-live-token","expires_at":null}}""".formatted(target.accountId()))));

        JsonNode completed = onlyCompletion(postId, target.accountId());
        assertThat(completed.get("status").asText()).isEqualTo("published");
        assertThat(completed.get("attempts").asInt()).isEqualTo(1);
        assertThat(fake.find(postRequestedFor(urlPathEqualTo("/rest/posts"))
                        .withRequestBody(matchingJsonPath(
                                "$.commentary", equalTo(event.post().text())))))
                .hasSize(1);
    }

    @Test
    void aLiveInstagramReelIsPublishedAfterSeveralChecksThatAreNotCountedAsAttempts() throws Exception {
        Target target = Target.of(Platform.INSTAGRAM, "acme_reels");
        PostAcceptedEvent event = accepted(
                workspace,
                Mode.LIVE,
                "Reel through the worker",
                new Post.Media("https://cdn.example.com/reel.mp4", Post.Media.VIDEO),
                target);
        String postId = event.post().id();
        FakeReel reel = FakeReel.of(target, postId, "IN_PROGRESS", "IN_PROGRESS", "FINISHED");
        String ig = FakeReel.IG;
        String user = reel.user();
        String container = reel.container();
        var fake = FakePlatformApis.client();

        send(event);

        // Between checks the delivery waits as pending, its attempt given back, due one check interval later.
        String waiting =
                "select status, attempts, extract(epoch from next_attempt_at - updated_at)::float8 as wait_seconds"
                        + " from deliveries where post_id = ? and account_id = ?";
        await("the reel's delivery waits for its next check", () -> {
            List<Map<String, Object>> found = rows(waiting, postId, target.accountId());
            return !found.isEmpty() && "pending".equals(found.get(0).get("status"));
        });
        assertThat(rows(waiting, postId, target.accountId())).singleElement().satisfies(row -> {
            assertThat(row).containsEntry("status", "pending").containsEntry("attempts", 0);
            assertThat((Double) row.get("wait_seconds")).isEqualTo(1.0);
        });

        JsonNode completed = onlyCompletion(postId, target.accountId());
        assertThat(completed.get("mode").asText()).isEqualTo("live");
        assertThat(completed.get("status").asText()).isEqualTo("published");
        assertThat(completed.get("attempts").asInt())
                .as("the create call and three checks were one attempt")
                .isEqualTo(1);
        assertThat(completed.get("provider_post_id").asText()).isEqualTo("m-" + postId);
        assertThat(completed.get("url").asText())
                .isEqualTo("https://www.instagram.com/reel/R" + postId.substring(4) + "/");
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(ig + user + "/media")));
        fake.verifyThat(3, getRequestedFor(urlPathEqualTo(ig + container)));
        fake.verifyThat(
                1,
                postRequestedFor(urlPathEqualTo(ig + user + "/media_publish"))
                        .withRequestBody(equalToJson("{\"creation_id\":\"" + container + "\"}")));
        assertThat(rows(
                        "select state, provider_ref, checks, calls from provider_publications where token = ?",
                        PublishRequest.tokenOf(postId, target.accountId())))
                .singleElement()
                .satisfies(row -> assertThat(row)
                        .containsEntry("state", "published")
                        .containsEntry("provider_ref", container)
                        .containsEntry("checks", 3)
                        .containsEntry("calls", 1));
        // usage-service was asked before the create call and before each check.
        assertThat(FakeUsageService.calls(target.reservationId(postId))).hasSize(4);
        assertThat(sandboxPublications(postId, target.accountId())).isEmpty();
    }

    @Test
    void aLivePinterestVideoIsUploadedOnceAndPinnedWhenPinterestHasProcessedItWithoutSpendingAttempts()
            throws Exception {
        Target target = Target.of(Platform.PINTEREST, "acme_video_pins");
        try (GeneratedMedia media = new GeneratedMedia()) {
            PostAcceptedEvent event = accepted(
                    workspace,
                    Mode.LIVE,
                    "Assembly in a minute",
                    new Post.Media(media.file("assembly.mp4", 1_500_000), Post.Media.VIDEO),
                    target);
            ObjectNode options = event.post().platformOptions();
            options.putObject("pinterest").put("board_id", "549755885175");
            String postId = event.post().id();
            String mediaId = "51" + postId.substring(4, 14).replaceAll("[^0-9]", "7");
            var fake = FakePlatformApis.client();
            fake.register(post(urlPathEqualTo("/internal/accounts/" + target.accountId() + "/access-token"))
                    .willReturn(okJson("""
                            {"data":{"account_id":"%s","platform":"pinterest","external_id":"1122334455",
                             "access_token":"pina-live","expires_at":null}}""".formatted(target.accountId()))));
            String upload = "/pinterest-upload-" + postId + "/";
            fake.register(post(urlPathEqualTo("/v5/media"))
                    .willReturn(aResponse()
                            .withStatus(201)
                            .withHeader("Content-Type", "application/json")
                            .withBody("{\"media_id\":\"" + mediaId
                                    + "\",\"media_type\":\"video\",\"upload_url\":\"http://127.0.0.1:"
                                    + Integer.getInteger("herald.test.fake-platforms.port") + upload
                                    + "\",\"upload_parameters\":{\"key\":\"k\"}}")));
            fake.register(post(urlPathEqualTo(upload)).willReturn(aResponse().withStatus(204)));
            String[] statuses = {"registered", "processing", "succeeded"};
            for (int i = 0; i < statuses.length; i++) {
                fake.register(get(urlPathEqualTo("/v5/media/" + mediaId))
                        .inScenario(mediaId)
                        .whenScenarioStateIs(i == 0 ? Scenario.STARTED : "check " + i)
                        .willReturn(okJson("{\"media_id\":\"" + mediaId + "\",\"status\":\"" + statuses[i] + "\"}"))
                        .willSetStateTo("check " + (i + 1)));
            }
            fake.register(post(urlPathEqualTo("/v5/pins"))
                    .withRequestBody(matchingJsonPath("$.media_source.media_id", equalTo(mediaId)))
                    .willReturn(aResponse()
                            .withStatus(201)
                            .withHeader("Content-Type", "application/json")
                            .withBody("{\"id\":\"p-" + mediaId + "\"}")));

            send(event);

            JsonNode completed = onlyCompletion(postId, target.accountId());
            assertThat(completed.get("status").asText()).isEqualTo("published");
            assertThat(completed.get("attempts").asInt())
                    .as("the upload and three checks were one attempt")
                    .isEqualTo(1);
            assertThat(completed.get("provider_post_id").asText()).isEqualTo("p-" + mediaId);
            fake.verifyThat(1, postRequestedFor(urlPathEqualTo("/v5/media")));
            fake.verifyThat(1, postRequestedFor(urlPathEqualTo(upload)));
            fake.verifyThat(3, getRequestedFor(urlPathEqualTo("/v5/media/" + mediaId)));
            fake.verifyThat(1, postRequestedFor(urlPathEqualTo("/v5/pins")));
            assertThat(media.requests())
                    .filteredOn(request -> "GET".equals(request.method()))
                    .hasSize(1);
            assertThat(rows(
                            "select state, provider_ref, checks from provider_publications where token = ?",
                            PublishRequest.tokenOf(postId, target.accountId())))
                    .singleElement()
                    .satisfies(row ->
                            assertThat(row).containsEntry("state", "published").containsEntry("checks", 3));
            assertThat(FakeUsageService.mediaCalls(UsageReservation.mediaBytesId(postId, target.accountId())))
                    .extracting(FakeUsageService.MediaCall::kind)
                    .containsExactly("reserve", "consume");
        }
    }

    /** Instagram's side of a live Reel of one post: the account's token, its container's statuses, media_publish. */
    private record FakeReel(String user, String container) {
        static final String IG = "/ig/v24.0/";

        static FakeReel of(Target target, String postId, String... statuses) {
            FakeReel reel = new FakeReel("1784" + postId.substring(4, 14).replaceAll("[^0-9]", "7"), "c-" + postId);
            var fake = FakePlatformApis.client();
            fake.register(post(urlPathEqualTo("/internal/accounts/" + target.accountId() + "/access-token"))
                    .willReturn(okJson("""
                            {"data":{"account_id":"%s","platform":"instagram","external_id":"%s",
                             "access_token":"IGAA-live","expires_at":"2026-12-31T00:00:00Z"}}""".formatted(target.accountId(), reel.user()))));
            fake.register(post(urlPathEqualTo(IG + reel.user() + "/media"))
                    .willReturn(okJson("{\"id\":\"" + reel.container() + "\"}")));
            for (int i = 0; i < statuses.length; i++) {
                fake.register(get(urlPathEqualTo(IG + reel.container()))
                        .inScenario(reel.container())
                        .whenScenarioStateIs(i == 0 ? Scenario.STARTED : "check " + i)
                        .willReturn(
                                okJson("{\"status_code\":\"" + statuses[i] + "\",\"id\":\"" + reel.container() + "\"}"))
                        .willSetStateTo("check " + (i + 1)));
            }
            fake.register(post(urlPathEqualTo(IG + reel.user() + "/media_publish"))
                    .willReturn(okJson("{\"id\":\"m-" + postId + "\"}")));
            fake.register(get(urlPathEqualTo(IG + "m-" + postId))
                    .willReturn(okJson(
                            "{\"permalink\":\"https://www.instagram.com/reel/R" + postId.substring(4) + "/\"}")));
            return reel;
        }
    }

    @Test
    void aUsageRefusalWhileInstagramProcessesAReelFailsTheTargetAndLeavesTheContainerUnpublished() throws Exception {
        Target target = Target.of(Platform.INSTAGRAM, "acme_reels_capped");
        PostAcceptedEvent event = accepted(
                workspace,
                Mode.LIVE,
                "Reel over the limit",
                new Post.Media("https://cdn.example.com/reel.mp4", Post.Media.VIDEO),
                target);
        String postId = event.post().id();
        FakeReel reel = FakeReel.of(target, postId, "FINISHED");
        var fake = FakePlatformApis.client();

        send(event);

        await("the reel's container was created", () -> "pending".equals(deliveryStatus(postId, target.accountId())));
        FakeUsageService.answer(
                target.reservationId(postId),
                FakeUsageService.refusal(
                        429,
                        "usage_limit_exceeded",
                        "{\"metric\":\"publications\",\"mode\":\"live\",\"plan\":\"free\",\"limit\":10,\"used\":10,\"reserved\":0,"
                                + "\"remaining\":0,\"reset_at\":\"2026-12-01T00:00:00Z\",\"upgrade_url\":\"https://herald.dev/pricing\"}"));

        JsonNode completed = onlyCompletion(postId, target.accountId());
        assertThat(completed.get("status").asText()).isEqualTo("failed");
        assertThat(completed.get("attempts").asInt()).isZero();
        assertThat(completed.get("error").get("code").asText()).isEqualTo("usage_limit_exceeded");
        // Instagram publishes nothing without media_publish: the finished container is never checked nor published.
        fake.verifyThat(1, postRequestedFor(urlPathEqualTo(FakeReel.IG + reel.user() + "/media")));
        fake.verifyThat(0, getRequestedFor(urlPathEqualTo(FakeReel.IG + reel.container())));
        fake.verifyThat(0, postRequestedFor(urlPathEqualTo(FakeReel.IG + reel.user() + "/media_publish")));
        assertThat(rows(
                        "select state from provider_publications where token = ?",
                        PublishRequest.tokenOf(postId, target.accountId())))
                .singleElement()
                .satisfies(row -> assertThat(row).containsEntry("state", "processing"));
    }

    @Test
    void anAllowanceUsedUpFailsTheTargetWithUsageLimitExceededAndItsDetails() throws Exception {
        Target target = Target.of(Platform.TIKTOK, "acme_tiktok");
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, target);
        String postId = event.post().id();
        FakeUsageService.answer(
                target.reservationId(postId),
                FakeUsageService.refusal(
                        429,
                        "usage_limit_exceeded",
                        "{\"metric\":\"publications\",\"mode\":\"test\",\"plan\":\"free\",\"limit\":1000,\"used\":1000,\"reserved\":0,"
                                + "\"remaining\":0,\"reset_at\":\"2026-12-01T00:00:00Z\",\"upgrade_url\":\"https://herald.dev/pricing\","
                                + "\"retry_after_seconds\":777}"));

        send(event);

        JsonNode completed = onlyCompletion(postId, target.accountId());
        assertThat(completed.get("status").asText()).isEqualTo("failed");
        // The provider was never called: no attempt, no publication.
        assertThat(completed.get("attempts").asInt()).isZero();
        JsonNode error = completed.get("error");
        assertThat(error.get("code").asText()).isEqualTo("usage_limit_exceeded");
        assertThat(error.get("message").asText()).isEqualTo("Refused: usage_limit_exceeded.");
        assertThat(error.get("retryable").asBoolean()).isFalse();
        assertThat(error.get("details").get("metric").asText()).isEqualTo("publications");
        assertThat(error.get("details").get("limit").asInt()).isEqualTo(1000);
        assertThat(error.get("details").get("reset_at").asText()).isEqualTo("2026-12-01T00:00:00Z");
        assertThat(sandboxPublications(postId, target.accountId())).isEmpty();
    }

    @Test
    void aLiveWorkspaceOverCapacityFailsTheTargetWithAccountCapacityExceeded() throws Exception {
        Target target = Target.of(Platform.INSTAGRAM, "acme_insta");
        PostAcceptedEvent event = accepted(workspace, Mode.LIVE, target);
        String postId = event.post().id();
        FakeUsageService.answer(
                target.reservationId(postId),
                FakeUsageService.refusal(
                        409,
                        "account_capacity_exceeded",
                        "{\"mode\":\"live\",\"plan\":\"free\",\"limit\":2,\"connected\":3,\"upgrade_url\":\"https://herald.dev/pricing\"}"));

        send(event);

        JsonNode completed = onlyCompletion(postId, target.accountId());
        assertThat(completed.get("status").asText()).isEqualTo("failed");
        assertThat(completed.get("attempts").asInt()).isZero();
        JsonNode error = completed.get("error");
        assertThat(error.get("code").asText()).isEqualTo("account_capacity_exceeded");
        assertThat(error.get("retryable").asBoolean()).isFalse();
        assertThat(error.get("details").get("connected").asInt()).isEqualTo(3);
        assertThat(error.get("details").get("limit").asInt()).isEqualTo(2);
        assertThat(FakeUsageService.calls(target.reservationId(postId)))
                .singleElement()
                .satisfies(call -> assertThat(
                                call.body().get("require_account_capacity").asBoolean())
                        .isTrue());
    }

    @Test
    void aTestAccountDisconnectedAfterAcceptanceFailsItsTargetInsteadOfPublishing() throws Exception {
        Target target = Target.of(Platform.LINKEDIN, "acme_in");
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, target);
        String postId = event.post().id();
        FakeUsageService.answer(
                target.reservationId(postId),
                FakeUsageService.refusal(
                        409,
                        "conflict",
                        "{\"account_id\":\"" + target.accountId() + "\",\"reason\":\"account_disconnected\"}"));

        send(event);

        JsonNode completed = onlyCompletion(postId, target.accountId());
        assertThat(completed.get("status").asText()).isEqualTo("failed");
        assertThat(completed.get("attempts").asInt()).isZero();
        JsonNode error = completed.get("error");
        assertThat(error.get("code").asText()).isEqualTo("account_disconnected");
        assertThat(error.get("retryable").asBoolean()).isFalse();
        assertThat(error.get("details").get("account_id").asText()).isEqualTo(target.accountId());
        assertThat(sandboxPublications(postId, target.accountId())).isEmpty();
        // The worker names the account, so usage-service can tell whether it still holds its slot.
        assertThat(FakeUsageService.calls(target.reservationId(postId)))
                .singleElement()
                .satisfies(call ->
                        assertThat(call.body().get("account_id").asText()).isEqualTo(target.accountId()));
    }

    @Test
    void aRefusalCodeThatDoesNotMatchItsStatusIsNoRefusal() throws Exception {
        // A 409 that is not account_capacity_exceeded says nothing about this delivery: it is asked again.
        Target target = Target.of(Platform.TIKTOK, "acme_tiktok");
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, target);
        String postId = event.post().id();
        FakeUsageService.answer(target.reservationId(postId), FakeUsageService.refusal(409, "conflict", "{}"));

        send(event);

        await("the delivery was postponed", () -> deferrals(postId, target.accountId()) >= 1);
        FakeUsageService.allow(target.reservationId(postId));
        assertThat(onlyCompletion(postId, target.accountId()).get("status").asText())
                .isEqualTo("published");
    }

    @Test
    void whileUsageServiceIsDownTheTargetIsRetriedLaterNotFailed() throws Exception {
        Target target = Target.of(Platform.PINTEREST, "acme_pins");
        PostAcceptedEvent event = accepted(workspace, Mode.TEST, target);
        String postId = event.post().id();
        String reservation = target.reservationId(postId);
        FakeUsageService.answer(reservation, FakeUsageService.down());

        send(event);

        // Asked again and again (each check is retried in place, then the delivery is postponed with backoff)...
        await(
                "usage-service was asked about the delivery at least twice over",
                () -> deferrals(postId, target.accountId()) >= 2);
        Map<String, Object> waiting = delivery(postId, target.accountId());
        assertThat(waiting.get("status")).isIn("pending", "publishing");
        // ...without an attempt, a publication or an outcome.
        assertThat(waiting).containsEntry("attempts", 0).containsEntry("completed_at", null);
        assertThat(sandboxPublications(postId, target.accountId())).isEmpty();
        assertThat(completions(postId, 1, Duration.ofSeconds(2))).isEmpty();

        FakeUsageService.allow(reservation);

        JsonNode completed = onlyCompletion(postId, target.accountId());
        assertThat(completed.get("status").asText()).isEqualTo("published");
        assertThat(completed.get("attempts").asInt()).isEqualTo(1);
        assertThat(delivery(postId, target.accountId())).containsEntry("deferrals", 0);
    }
}
