package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostAnalytics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * A video's public statistics ({@code videos.list?part=statistics&id=}): views, likes and comments. The Data API has
 * no shares, saves or reach ({@code favoriteCount} is always 0 since favorites were retired), so those are null.
 * Only ever called once the channel's owner accepted the analytics policy for the current authorization (until then
 * YouTube targets are redacted and YouTube is never asked).
 */
@ApplicationScoped
public class YouTubeAnalytics implements AnalyticsReader {
    private final YouTubeVideosApi api;
    private final ObjectMapper mapper;

    public YouTubeAnalytics(@RestClient YouTubeVideosApi api, ObjectMapper mapper) {
        this.api = api;
        this.mapper = mapper;
    }

    @Override
    public Platform platform() {
        return Platform.YOUTUBE;
    }

    @Override
    public Uni<ProviderMetrics> read(ActingAccount account, String providerPostId) {
        return api.videos(account.bearer(), "statistics", providerPostId)
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode body =
                            PlatformFailures.body(platform(), account, response, mapper, YouTubeComments::error);
                    JsonNode statistics = body.path("items").path(0).path("statistics");
                    if (!statistics.isObject()) {
                        // videos.list answers an empty list for a video that was deleted or made private.
                        throw new ApiException(
                                ErrorCode.PROVIDER_ERROR,
                                "YouTube has no video " + providerPostId + " any more.",
                                Map.of(
                                        "account_id",
                                        account.access().accountId(),
                                        "platform",
                                        platform().wireName()));
                    }
                    return new ProviderMetrics(
                            new PostAnalytics.Metrics(
                                    ProviderMetrics.count(statistics.path("viewCount")),
                                    ProviderMetrics.count(statistics.path("likeCount")),
                                    ProviderMetrics.count(statistics.path("commentCount")),
                                    null,
                                    null,
                                    null),
                            statistics);
                });
    }
}
