package dev.herald.accounts.provider;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.accounts.provider.FakeProvider.await;
import static dev.herald.accounts.provider.FakeProvider.failure;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.provider.facebook.FacebookPageStatistics;
import dev.herald.accounts.provider.instagram.InstagramProfileStatistics;
import dev.herald.accounts.provider.youtube.YouTubeChannelStatistics;
import dev.herald.common.wire.AccountAnalytics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** YouTube's, Facebook's and Instagram's account statistics readers against WireMock fakes of their documented endpoints. */
class AccountStatisticsReadersTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void youtubeReadsTheChannelsStatisticsWithItsToken() throws Exception {
        fake.server().stubFor(get(urlPathEqualTo("/youtube/v3/channels")).willReturn(okJson("""
                {"kind":"youtube#channelListResponse","etag":"e","pageInfo":{"totalResults":1,"resultsPerPage":5},
                 "items":[{"kind":"youtube#channel","etag":"f","id":"UC_x5XG1OV2P6uZZ5FSM9Ttw",
                   "statistics":{"viewCount":"3250000","subscriberCount":"41200","hiddenSubscriberCount":false,"videoCount":"318"}}]}""")));

        AccountStatistics read = await(new YouTubeChannelStatistics(fake.config(), fake.http(fake.config()))
                .read("ya29.token", "UC_x5XG1OV2P6uZZ5FSM9Ttw"));

        assertThat(read.metrics()).isEqualTo(new AccountAnalytics.Metrics(41200L, null, 318L, 3250000L, null));
        assertThat(read.raw()).isEqualTo(JSON.readTree("""
                {"viewCount":"3250000","subscriberCount":"41200","hiddenSubscriberCount":false,"videoCount":"318"}"""));
        fake.server()
                .verify(getRequestedFor(urlPathEqualTo("/youtube/v3/channels"))
                        .withQueryParam("part", equalTo("statistics"))
                        .withQueryParam("id", equalTo("UC_x5XG1OV2P6uZZ5FSM9Ttw"))
                        .withHeader("Authorization", equalTo("Bearer ya29.token")));
    }

    @Test
    void aChannelThatHidesItsSubscriberCountHasNoFollowers() {
        fake.server().stubFor(get(urlPathEqualTo("/youtube/v3/channels")).willReturn(okJson("""
                {"items":[{"id":"UC1","statistics":{"viewCount":"10","subscriberCount":"0","hiddenSubscriberCount":true,"videoCount":"2"}}]}""")));

        AccountStatistics read =
                await(new YouTubeChannelStatistics(fake.config(), fake.http(fake.config())).read("t", "UC1"));

        assertThat(read.metrics()).isEqualTo(new AccountAnalytics.Metrics(null, null, 2L, 10L, null));
    }

    @Test
    void aRefusedYoutubeTokenIsARevokedGrantToRenew() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/youtube/v3/channels"))
                        .willReturn(aResponse()
                                .withStatus(401)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                {"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED",
                  "errors":[{"message":"Invalid Credentials","domain":"global","reason":"authError"}]}}""")));

        ProviderException refused =
                failure(new YouTubeChannelStatistics(fake.config(), fake.http(fake.config())).read("old", "UC1"));

        assertThat(refused.revoked()).isTrue();
        assertThat(refused.code()).isEqualTo("authError");
    }

    @Test
    void facebookReadsThePagesFollowersAndFans() {
        fake.server().stubFor(get(urlPathEqualTo("/1029384756")).willReturn(okJson("""
                {"followers_count":5120,"fan_count":4980,"id":"1029384756"}""")));

        AccountStatistics read = await(
                new FacebookPageStatistics(fake.config(), fake.http(fake.config())).read("EAAG-page", "1029384756"));

        assertThat(read.metrics()).isEqualTo(new AccountAnalytics.Metrics(5120L, null, null, null, 4980L));
        fake.server()
                .verify(getRequestedFor(urlPathEqualTo("/1029384756"))
                        .withQueryParam("fields", equalTo("followers_count,fan_count"))
                        .withHeader("Authorization", equalTo("Bearer EAAG-page")));
    }

    @Test
    void instagramReadsTheProfessionalAccountsCounts() {
        fake.server().stubFor(get(urlPathEqualTo("/v24.0/me")).willReturn(okJson("""
                {"followers_count":880,"follows_count":120,"media_count":64,"id":"17841400000000001"}""")));

        AccountStatistics read = await(new InstagramProfileStatistics(fake.config(), fake.http(fake.config()))
                .read("IGQV-token", "17841400000000001"));

        assertThat(read.metrics()).isEqualTo(new AccountAnalytics.Metrics(880L, 120L, 64L, null, null));
        fake.server()
                .verify(getRequestedFor(urlPathEqualTo("/v24.0/me"))
                        .withQueryParam("fields", equalTo("followers_count,follows_count,media_count"))
                        .withHeader("Authorization", equalTo("Bearer IGQV-token")));
    }

    @Test
    void instagramsRateLimitIsRetryableNotARevokedGrant() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v24.0/me"))
                        .willReturn(aResponse()
                                .withStatus(400)
                                .withHeader("Content-Type", "application/json")
                                .withBody("""
                {"error":{"message":"(#4) Application request limit reached","type":"OAuthException","code":4,"fbtrace_id":"x"}}""")));

        ProviderException failure =
                failure(new InstagramProfileStatistics(fake.config(), fake.http(fake.config())).read("t", "1"));

        assertThat(failure.retryable()).isTrue();
        assertThat(failure.revoked()).isFalse();
    }
}
