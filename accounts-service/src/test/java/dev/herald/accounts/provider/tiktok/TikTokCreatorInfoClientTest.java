package dev.herald.accounts.provider.tiktok;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.accounts.provider.FakeProvider.await;
import static dev.herald.accounts.provider.FakeProvider.failure;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.accounts.provider.FakeProvider;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.common.wire.TikTokPublishingOptions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TikTokCreatorInfoClientTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    private TikTokCreatorInfoClient reader() {
        return new TikTokCreatorInfoClient(fake.config(), fake.http(fake.config()));
    }

    @Test
    void readsTheCreatorsCurrentPublishingOptions() {
        fake.server()
                .stubFor(post(urlPathEqualTo("/v2/post/publish/creator_info/query/"))
                        .willReturn(okJson("""
                {"data":{"creator_avatar_url":"https://p16.example/a.jpg","creator_username":"ana.makes",
                  "creator_nickname":"Ana","privacy_level_options":["PUBLIC_TO_EVERYONE","MUTUAL_FOLLOW_FRIENDS","SELF_ONLY"],
                  "comment_disabled":false,"duet_disabled":true,"stitch_disabled":false,"max_video_post_duration_sec":300},
                 "error":{"code":"ok","message":"","log_id":"x"}}""")));

        TikTokPublishingOptions options = await(reader().creatorInfo("act.1"));

        assertThat(options)
                .isEqualTo(new TikTokPublishingOptions(
                        "Ana",
                        "ana.makes",
                        "https://p16.example/a.jpg",
                        List.of("PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"),
                        false,
                        true,
                        false,
                        300));
        fake.server()
                .verify(postRequestedFor(urlPathEqualTo("/v2/post/publish/creator_info/query/"))
                        .withHeader("Authorization", equalTo("Bearer act.1"))
                        .withHeader("Content-Type", WireMock.containing("application/json")));
    }

    @Test
    void tiktoksPerTokenRateLimitIsRetryable() {
        fake.server()
                .stubFor(post(urlPathEqualTo("/v2/post/publish/creator_info/query/"))
                        .willReturn(aResponse()
                                .withStatus(429)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                {"data":{},"error":{"code":"rate_limit_exceeded","message":"limit","log_id":"x"}}""")));

        ProviderException failure = failure(reader().creatorInfo("act.1"));

        assertThat(failure.code()).isEqualTo("rate_limit_exceeded");
        assertThat(failure.retryable()).isTrue();
    }

    @Test
    void aMissingScopeMeansTheCreatorMustAuthorizeAgain() {
        fake.server()
                .stubFor(post(urlPathEqualTo("/v2/post/publish/creator_info/query/"))
                        .willReturn(aResponse()
                                .withStatus(401)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                {"data":{},"error":{"code":"scope_not_authorized","message":"video.publish","log_id":"x"}}""")));

        ProviderException failure = failure(reader().creatorInfo("act.1"));

        assertThat(failure.code()).isEqualTo("scope_not_authorized");
        assertThat(failure.revoked()).isTrue();
        assertThat(failure.retryable()).isFalse();
    }
}
