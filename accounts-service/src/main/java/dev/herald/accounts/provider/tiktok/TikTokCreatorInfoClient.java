package dev.herald.accounts.provider.tiktok;

import static dev.herald.accounts.provider.http.TokenResponses.text;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.TikTokCreatorInfoReader;
import dev.herald.accounts.provider.http.ProviderErrors;
import dev.herald.accounts.provider.http.ProviderHttpClient;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.TikTokPublishingOptions;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Content Posting API's creator info query
 * (https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info): POST
 * {@code /v2/post/publish/creator_info/query/} with the creator's token (scope {@code video.publish}; TikTok
 * allows 20 calls per token per minute, answered {@code rate_limit_exceeded}, which is retryable).
 */
@ApplicationScoped
public class TikTokCreatorInfoClient implements TikTokCreatorInfoReader {
    private final ProvidersConfig.TikTok config;
    private final ProviderHttpClient http;

    public TikTokCreatorInfoClient(ProvidersConfig config, ProviderHttpClient http) {
        this.config = config.tiktok();
        this.http = http;
    }

    @Override
    public Uni<TikTokPublishingOptions> creatorInfo(String accessToken) {
        Map<String, String> headers = new HashMap<>(ProviderHttpClient.bearer(accessToken));
        headers.put("Content-Type", "application/json; charset=UTF-8");
        return http.postJson(config.apiUrl() + "/v2/post/publish/creator_info/query/", new JsonObject(), headers)
                .map(response -> {
                    JsonObject data = TikTokApi.data(response);
                    JsonArray privacy = data.getJsonArray("privacy_level_options");
                    Integer maxDuration = data.getInteger("max_video_post_duration_sec");
                    if (privacy == null || maxDuration == null) {
                        throw ProviderErrors.malformed(
                                Platform.TIKTOK, "privacy_level_options and max_video_post_duration_sec");
                    }
                    List<String> options = privacy.stream().map(String::valueOf).toList();
                    return new TikTokPublishingOptions(
                            text(data, "creator_nickname"),
                            text(data, "creator_username"),
                            text(data, "creator_avatar_url"),
                            options,
                            data.getBoolean("comment_disabled", false),
                            data.getBoolean("duet_disabled", false),
                            data.getBoolean("stitch_disabled", false),
                            maxDuration);
                });
    }
}
