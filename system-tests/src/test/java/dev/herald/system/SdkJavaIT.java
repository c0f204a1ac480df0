package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.sdk.Herald;
import dev.herald.sdk.HeraldApiException;
import dev.herald.sdk.Pages;
import dev.herald.sdk.WebhookVerifier;
import dev.herald.sdk.generated.model.Account;
import dev.herald.sdk.generated.model.CreatePostRequest;
import dev.herald.sdk.generated.model.CreateProfileRequest;
import dev.herald.sdk.generated.model.CreateSandboxAccountRequest;
import dev.herald.sdk.generated.model.CreateWebhookEndpointRequest;
import dev.herald.sdk.generated.model.Platform;
import dev.herald.sdk.generated.model.Post;
import dev.herald.sdk.generated.model.PostList;
import dev.herald.sdk.generated.model.Profile;
import dev.herald.sdk.generated.model.WebhookEndpointWithSecret;
import dev.herald.system.WebhooksIT.Receiver;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The Java SDK (sdk/java) against the running suite, used as an integrator would: a profile, a sandbox account in it,
 * posts, every post through the pagination iterator, and a webhook delivery checked with the SDK's verifier.
 */
class SdkJavaIT {
    @Test
    void anIntegratorPostsPagesThroughPostsAndVerifiesAWebhookWithTheJavaSdk() throws Exception {
        Herald herald = Herald.builder()
                .baseUrl(RunningSuite.baseUrl())
                .apiKey(PostsPipelineIT.testKey("SDK Java"))
                .build();

        Profile profile = herald.profiles()
                .createProfile(new CreateProfileRequest().name("SDK Java"))
                .getData();
        Account account = herald.accounts()
                .createSandboxAccount(new CreateSandboxAccountRequest()
                        .platform(Platform.LINKEDIN)
                        .profileId(profile.getId())
                        .username("brand"))
                .getData();
        assertThat(account.getProfileId()).isEqualTo(profile.getId());
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Post post = herald.createPost(new CreatePostRequest()
                            .text("From the Java SDK " + i)
                            .addAccountIdsItem(account.getId()))
                    .getData();
            assertThat(post.getStatus()).hasToString("queued");
            created.add(0, post.getId());
        }

        AtomicInteger pages = new AtomicInteger();
        List<String> listed = new ArrayList<>();
        for (Post post : Pages.iterate(
                cursor -> {
                    pages.incrementAndGet();
                    return herald.posts().listPosts(null, null, null, null, profile.getId(), 2, cursor);
                },
                PostList::getData,
                PostList::getMeta)) {
            listed.add(post.getId());
        }
        assertThat(listed).containsExactlyElementsOf(created);
        assertThat(pages).hasValue(2);

        assertThatThrownBy(() -> herald.posts().getPost("pst_0123456789abcdef01234567"))
                .isInstanceOfSatisfying(
                        HeraldApiException.NotFound.class,
                        e -> assertThat(e.code()).isEqualTo("not_found"));

        try (Receiver receiver = new Receiver(n -> 200)) {
            WebhookEndpointWithSecret endpoint = herald.webhooks()
                    .createWebhookEndpoint(new CreateWebhookEndpointRequest()
                            .url(URI.create(receiver.url()))
                            .addEventsItem(CreateWebhookEndpointRequest.EventsEnum.POST_PUBLISHED))
                    .getData();
            herald.webhooks().sendTestWebhook(endpoint.getId(), Map.of());
            Receiver.Request delivery = receiver.awaitRequests(1, 30_000).get(0);

            WebhookVerifier verifier = new WebhookVerifier(List.of(endpoint.getSecret()));
            assertThat(verifier.verify(delivery.body(), delivery.headers())).isEqualTo(delivery.header("webhook-id"));
            assertThat(new String(delivery.body(), StandardCharsets.UTF_8)).contains("\"type\":\"webhook.test\"");
            byte[] tampered = new String(delivery.body(), StandardCharsets.UTF_8)
                    .replace("webhook.test", "post.published")
                    .getBytes(StandardCharsets.UTF_8);
            assertThatThrownBy(() -> verifier.verify(tampered, delivery.headers()))
                    .isInstanceOfSatisfying(
                            WebhookVerifier.VerificationException.class,
                            e -> assertThat(e.reason()).isEqualTo(WebhookVerifier.Reason.NO_MATCHING_SIGNATURE));
        }
    }
}
