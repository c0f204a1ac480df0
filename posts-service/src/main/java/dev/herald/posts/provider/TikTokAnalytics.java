package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostAnalytics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * A TikTok video's counts from Query Videos (https://developers.tiktok.com/doc/tiktok-api-v2-video-query,
 * {@code POST /v2/video/query/?fields=id,like_count,comment_count,share_count,view_count} with
 * {@code {"filters": {"video_ids": [id]}}}, scope {@code video.list}): views, likes, comments and shares. TikTok has
 * no saves or reach here (null). A grant from before Herald asked for {@code video.list} is refused
 * {@code scope_not_authorized}: {@link ScopeNotGranted}, which only a reconnection fixes. A video TikTok does not
 * answer (deleted, made private, or a post that only has its publish id because it was never public) is a
 * {@code provider_error}.
 */
@ApplicationScoped
public class TikTokAnalytics implements AnalyticsReader {
    static final String FIELDS = "id,like_count,comment_count,share_count,view_count";

    private final TikTokVideosApi api;
    private final ObjectMapper mapper;

    public TikTokAnalytics(@RestClient TikTokVideosApi api, ObjectMapper mapper) {
        this.api = api;
        this.mapper = mapper;
    }

    @Override
    public Platform platform() {
        return Platform.TIKTOK;
    }

    @Override
    public Uni<ProviderMetrics> read(ActingAccount account, String providerPostId) {
        ObjectNode filters = mapper.createObjectNode();
        filters.putObject("filters").putArray("video_ids").add(providerPostId);
        return api.query(account.bearer(), FIELDS, filters)
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode body =
                            PlatformFailures.body(platform(), account, response, mapper, TikTokAnalytics::error);
                    String code = body.path("error").path("code").asText("ok");
                    JsonNode video = video(body.path("data").path("videos"), providerPostId);
                    if (!"ok".equals(code) || video == null) {
                        throw new ApiException(
                                ErrorCode.PROVIDER_ERROR,
                                "ok".equals(code)
                                        ? "TikTok answered no video " + providerPostId + " of this account."
                                        : "TikTok answered " + code + ": "
                                                + body.path("error")
                                                        .path("message")
                                                        .asText(""),
                                Map.of(
                                        "account_id",
                                        account.access().accountId(),
                                        "platform",
                                        platform().wireName()));
                    }
                    return new ProviderMetrics(
                            new PostAnalytics.Metrics(
                                    ProviderMetrics.count(video.path("view_count")),
                                    ProviderMetrics.count(video.path("like_count")),
                                    ProviderMetrics.count(video.path("comment_count")),
                                    ProviderMetrics.count(video.path("share_count")),
                                    null,
                                    null),
                            video);
                });
    }

    private static JsonNode video(JsonNode videos, String id) {
        for (JsonNode video : videos) {
            if (id.equals(video.path("id").asText())) {
                return video;
            }
        }
        return null;
    }

    /**
     * TikTok's envelope {@code {"error": {"code", "message", "log_id"}}} (codes per
     * https://developers.tiktok.com/doc/tiktok-api-v2-error-handling/): {@code access_token_invalid} (HTTP 401) a
     * refused token, {@code rate_limit_exceeded} (429) its rate limit, {@code scope_not_authorized} a missing scope.
     */
    static PlatformFailures.PlatformError error(int status, JsonNode body) {
        String code = body.path("error").path("code").asText(null);
        String message = body.path("error").path("message").asText("");
        if ("scope_not_authorized".equals(code)) {
            return new PlatformFailures.PlatformError(PlatformFailures.Kind.SCOPE_NOT_GRANTED, code, message);
        }
        if ("access_token_invalid".equals(code) || (status == 401 && code == null)) {
            return new PlatformFailures.PlatformError(PlatformFailures.Kind.TOKEN_REFUSED, code, message);
        }
        if (status == 429 || "rate_limit_exceeded".equals(code)) {
            return new PlatformFailures.PlatformError(PlatformFailures.Kind.RATE_LIMITED, code, message);
        }
        return new PlatformFailures.PlatformError(PlatformFailures.Kind.FAILED, code, message);
    }
}
