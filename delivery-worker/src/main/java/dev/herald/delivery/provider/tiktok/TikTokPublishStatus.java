package dev.herald.delivery.provider.tiktok;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.media.MediaSource;
import dev.herald.delivery.repository.ProviderPublicationStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * A Direct Post's fate by its publish id ({@code status/fetch}), for {@link TikTokPublisher}: what a call whose outcome
 * is unknown left at TikTok, and each later look at the post TikTok is processing.
 */
@ApplicationScoped
public class TikTokPublishStatus {
    private final TikTokApi api;
    private final ProviderPublicationStatements publications;

    public TikTokPublishStatus(TikTokApi api, ProviderPublicationStatements publications) {
        this.api = api;
        this.publications = publications;
    }

    /**
     * What the last call, whose outcome is unknown, left at TikTok, by the publish id kept before its upload: the post,
     * a video TikTok has whole and is processing, or nothing (no publish id: the init's answer was lost before any byte
     * moved; an upload that broke off short; a post that failed with a retryable reason).
     */
    Uni<PlatformAnswer> find(PublishRequest request, ProviderAccess access, MediaSource.Located source) {
        return publications.find(request.idempotencyToken()).flatMap(before -> {
            String publishId = before == null ? null : before.providerRef();
            if (publishId == null) {
                return Uni.createFrom().item(new PlatformAnswer.NotFound());
            }
            return api.status(access, publishId).map(answer -> {
                JsonNode body = api.json(answer);
                if (!TikTokErrors.ok(answer.status(), body)) {
                    return "invalid_publish_id".equals(TikTokErrors.code(body))
                            ? new PlatformAnswer.NotFound()
                            : TikTokErrors.answer(answer, body, "TikTok could not report the post's status");
                }
                JsonNode data = body.path("data");
                String status = data.path("status").asText("");
                switch (status) {
                    case "PUBLISH_COMPLETE":
                        return published(request, publishId, data);
                    case "FAILED": {
                        TargetError failed =
                                TikTokErrors.failed(data.path("fail_reason").asText(null), publishId);
                        return failed.retryable() ? new PlatformAnswer.NotFound() : new PlatformAnswer.Refused(failed);
                    }
                    case "PROCESSING_UPLOAD":
                        if (source != null
                                && data.has("uploaded_bytes")
                                && data.get("uploaded_bytes").asLong() < source.size()) {
                            // Part of the file only: TikTok publishes nothing without the rest, and its upload URL
                            // lapses.
                            return new PlatformAnswer.NotFound();
                        }
                        return new PlatformAnswer.Processing(publishId);
                    case "PROCESSING_DOWNLOAD":
                        return new PlatformAnswer.Processing(publishId);
                    default:
                        return unexpected(status, publishId);
                }
            });
        });
    }

    /** One look at the post TikTok is processing; anything but TikTok's own verdict keeps the publish id for the next. */
    Uni<PlatformAnswer> check(PublishRequest request, ProviderAccess access, String publishId) {
        return api.status(access, publishId).map(answer -> {
            JsonNode body = api.json(answer);
            if (!TikTokErrors.ok(answer.status(), body)) {
                if ("invalid_publish_id".equals(TikTokErrors.code(body))) {
                    return new PlatformAnswer.Refused(TikTokErrors.forgottenPublishId(publishId));
                }
                PlatformAnswer failure = TikTokErrors.answer(answer, body, "TikTok could not report the post's status");
                return failure instanceof PlatformAnswer.Refused refused
                        ? new PlatformAnswer.Unknown(refused.error())
                        : failure;
            }
            JsonNode data = body.path("data");
            String status = data.path("status").asText("");
            switch (status) {
                case "PUBLISH_COMPLETE":
                    return published(request, publishId, data);
                case "PROCESSING_UPLOAD":
                case "PROCESSING_DOWNLOAD":
                    return new PlatformAnswer.Processing(publishId);
                case "FAILED":
                    return new PlatformAnswer.Refused(
                            TikTokErrors.failed(data.path("fail_reason").asText(null), publishId));
                default:
                    return unexpected(status, publishId);
            }
        });
    }

    private static PlatformAnswer unexpected(String status, String publishId) {
        return new PlatformAnswer.Unknown(new TargetError(
                TargetError.PROVIDER_ERROR,
                "TikTok reported the post as '" + status + "'.",
                true,
                Map.of("platform", "tiktok", "publish_id", publishId, "provider_status_text", status)));
    }

    /**
     * A completed post: its id is the first of {@code publicaly_available_post_id} (TikTok's spelling), with the video's (a
     * photo post's) URL; a post that is not public (or not through moderation yet) has none, and keeps the publish id with the
     * creator's profile as its URL.
     */
    private static PlatformAnswer published(PublishRequest request, String publishId, JsonNode data) {
        JsonNode ids = data.path("publicaly_available_post_id");
        String id = ids.isArray() && !ids.isEmpty() ? ids.get(0).asText() : null;
        String username = request.accountUsername();
        String profile = username == null || username.isBlank() ? null : "https://www.tiktok.com/@" + username;
        if (id == null || id.isBlank()) {
            return new PlatformAnswer.Published(publishId, profile);
        }
        // A photo post's page is /photo/{id}, a video's /video/{id}.
        String kind = TikTokPhotoPost.isPhotoPost(request) ? "/photo/" : "/video/";
        return new PlatformAnswer.Published(id, profile == null ? null : profile + kind + id);
    }
}
