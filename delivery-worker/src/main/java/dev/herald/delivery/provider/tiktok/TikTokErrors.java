package dev.herald.delivery.provider.tiktok;

import static dev.herald.common.wire.TargetError.ACTION_CONTACT_SUPPORT;
import static dev.herald.common.wire.TargetError.ACTION_EDIT_CONTENT;
import static dev.herald.common.wire.TargetError.ACTION_RECONNECT;
import static dev.herald.common.wire.TargetError.ACTION_REPLACE_MEDIA;
import static dev.herald.common.wire.TargetError.ACTION_RETRY_LATER;
import static dev.herald.common.wire.TargetError.CATEGORY_AUTH;
import static dev.herald.common.wire.TargetError.CATEGORY_CONTENT;
import static dev.herald.common.wire.TargetError.CATEGORY_MEDIA;
import static dev.herald.common.wire.TargetError.CATEGORY_PLATFORM;
import static dev.herald.common.wire.TargetError.CATEGORY_RATE_LIMIT;
import static dev.herald.delivery.provider.ErrorTable.reauth;
import static dev.herald.delivery.provider.ErrorTable.refuse;
import static dev.herald.delivery.provider.ErrorTable.retry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.ErrorTable;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.media.StreamingHttp;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * TikTok's v2 error answers ({@code {"error": {"code", "message", "log_id"}}}, {@code code} {@code ok} on success) and
 * a failed post's {@code fail_reason}, filed by {@link #TABLE} (https://developers.tiktok.com/doc/tiktok-api-v2-error-handling,
 * the Content Posting API's Direct Post and Get Post Status references): a refused token (401) is refreshed once; rate
 * limits, TikTok's internal errors and failed media pulls are retried; the creator's and the app's daily caps, a ban,
 * an unaudited app, a privacy level TikTok will not take, missing scopes and a file TikTok's checks refuse are final.
 * The code is {@code provider_code}, TikTok's {@code log_id} {@code provider_log_id} (TikTok support asks for it).
 */
final class TikTokErrors {
    static final ErrorTable TABLE = ErrorTable.of(
            "TikTok",
            reauth("access_token_invalid", "TikTok no longer accepts the account's access token"),
            refuse(
                    "scope_not_authorized",
                    CATEGORY_AUTH,
                    ACTION_RECONNECT,
                    "the account's TikTok grant lacks the video.publish scope; reconnect the account to grant it"),
            refuse(
                    "scope_permission_missed",
                    CATEGORY_AUTH,
                    ACTION_RECONNECT,
                    "the account's TikTok grant lacks a scope this needs; reconnect the account to grant it"),
            retry("rate_limit_exceeded", CATEGORY_RATE_LIMIT, "TikTok's rate limit for the account was reached"),
            refuse(
                    "spam_risk_too_many_posts",
                    CATEGORY_RATE_LIMIT,
                    ACTION_RETRY_LATER,
                    "the account reached TikTok's daily cap of posts made through apps; post again tomorrow"),
            refuse(
                    "spam_risk_too_many_pending_share",
                    CATEGORY_RATE_LIMIT,
                    ACTION_RETRY_LATER,
                    "the account has too many posts waiting at TikTok; post again once they are done"),
            refuse(
                    "reached_active_user_cap",
                    CATEGORY_RATE_LIMIT,
                    ACTION_RETRY_LATER,
                    "Herald's TikTok app reached TikTok's daily cap of accounts posting through it; post again tomorrow"),
            refuse(
                    "spam_risk_user_banned_from_posting",
                    CATEGORY_PLATFORM,
                    ACTION_CONTACT_SUPPORT,
                    "TikTok has banned the account from posting through apps; the account owner must resolve it with TikTok"),
            refuse(
                    "unaudited_client_can_only_post_to_private_accounts",
                    CATEGORY_PLATFORM,
                    ACTION_CONTACT_SUPPORT,
                    "Herald's TikTok app is not audited yet, so TikTok takes posts only from private accounts"),
            refuse(
                    "privacy_level_option_mismatch",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "the account's privacy settings do not allow the post's privacy_level; choose one of the account's"
                            + " publishing options"),
            refuse(
                    "url_ownership_unverified",
                    CATEGORY_PLATFORM,
                    ACTION_CONTACT_SUPPORT,
                    "the media URL's domain is not verified with TikTok for Herald's app"),
            refuse(
                    "invalid_params",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "TikTok found a field of the post invalid (a title too long, an option it does not take)"),
            refuse("spam_risk_text", CATEGORY_CONTENT, ACTION_EDIT_CONTENT, "TikTok judged the post's text to be spam"),
            refuse("spam_risk", CATEGORY_CONTENT, ACTION_EDIT_CONTENT, "TikTok judged the post to be spam"),
            refuse(
                    "invalid_file_upload",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "the video does not meet TikTok's file requirements"),
            refuse(
                    "file_format_check_failed",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "the file's format is not one TikTok takes (MP4, WebM or MOV video; JPEG or WebP photos)"),
            refuse(
                    "duration_check_failed",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "the video is shorter or longer than the account may post"),
            refuse(
                    "frame_rate_check_failed",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "the video's frame rate is outside what TikTok takes"),
            refuse(
                    "picture_size_check_failed",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "the picture's dimensions are outside what TikTok takes"),
            retry("video_pull_failed", CATEGORY_MEDIA, "TikTok could not fetch the video"),
            retry("photo_pull_failed", CATEGORY_MEDIA, "TikTok could not fetch the photo"),
            retry(
                    "invalid_publish_id",
                    CATEGORY_PLATFORM,
                    "TikTok no longer knows the post's publish id, so it published nothing from it; the next attempt"
                            + " uploads the video again"),
            refuse(
                    "auth_removed",
                    CATEGORY_AUTH,
                    ACTION_RECONNECT,
                    "the account removed Herald's access while TikTok processed the post"),
            refuse(
                    "publish_cancelled",
                    CATEGORY_PLATFORM,
                    ACTION_CONTACT_SUPPORT,
                    "the post was cancelled at TikTok before it was published"),
            retry("internal", CATEGORY_PLATFORM, "TikTok failed while processing the post"),
            retry("internal_error", CATEGORY_PLATFORM, "TikTok failed while handling the request"),
            reauth("http 401", "TikTok no longer accepts the account's access token"),
            refuse(
                    "http 2xx",
                    CATEGORY_PLATFORM,
                    ACTION_CONTACT_SUPPORT,
                    "TikTok answered with an error code it does not document"),
            refuse("unknown", CATEGORY_PLATFORM, ACTION_CONTACT_SUPPORT, "TikTok gave no reason TikTok documents"));

    /** The creator or the app cannot post now, for the day or for good: a retry within a delivery's backoff meets it again. */
    static final Set<String> CANNOT_POST = Set.of(
            "spam_risk_too_many_posts",
            "spam_risk_user_banned_from_posting",
            "reached_active_user_cap",
            "unaudited_client_can_only_post_to_private_accounts",
            "spam_risk_too_many_pending_share");

    private TikTokErrors() {}

    static String code(JsonNode body) {
        return body.path("error").path("code").asText(null);
    }

    /** Whether the answer is TikTok's success: a 2xx with {@code error.code} {@code ok}. */
    static boolean ok(int status, JsonNode body) {
        return status / 100 == 2 && "ok".equals(code(body));
    }

    /**
     * A failed answer; the caller decides whether a retryable one may have done something (it never does for
     * FILE_UPLOAD init). An upload URL's refusal may carry no JSON at all (a bare 4xx or 5xx): its status files it.
     */
    static PlatformAnswer answer(int status, JsonNode body, Integer retryAfterSeconds, String what) {
        String code = code(body);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("platform", "tiktok");
        details.put("provider_status", status);
        if (code != null) {
            details.put("provider_code", code);
        }
        String logId = body.path("error").path("log_id").asText(null);
        if (logId != null && !logId.isBlank()) {
            details.put("provider_log_id", logId);
        }
        if (code != null && CANNOT_POST.contains(code)) {
            details.put("reason", "creator_cannot_post");
        }
        ErrorTable.Row row = TABLE.row(status, code);
        if (row.retryable() && retryAfterSeconds != null) {
            details.put("retry_after_seconds", retryAfterSeconds);
        }
        TargetError error = TABLE.error(
                row, what, status, code, body.path("error").path("message").asText(null), details);
        return row.kind() == ErrorTable.Kind.TOKEN_REFUSED
                ? new PlatformAnswer.TokenRefused(error)
                : new PlatformAnswer.Refused(error);
    }

    /**
     * A {@code FAILED} post's {@code fail_reason} (TikTok's table): {@code internal} and the media pulls retryable (TikTok
     * says so), the format, duration, frame rate and picture size checks final (the same file fails again),
     * {@code publish_cancelled} final; an unknown reason final.
     */
    static TargetError failed(String failReason, String publishId) {
        String reason = failReason == null || failReason.isBlank() ? "unknown" : failReason;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("platform", "tiktok");
        details.put("provider_code", reason);
        details.put("publish_id", publishId);
        ErrorTable.Row row = TABLE.find(reason, "unknown");
        return TABLE.error(row, "TikTok did not publish the video", 0, reason, null, details);
    }

    /** The error of TikTok's {@code invalid_publish_id}: the post's status cannot be asked, and nothing was published. */
    static TargetError forgottenPublishId(String publishId) {
        return TABLE.error(
                TABLE.find("invalid_publish_id"),
                "TikTok could not report the post's status",
                0,
                "invalid_publish_id",
                null,
                Map.of("platform", "tiktok", "provider_code", "invalid_publish_id", "publish_id", publishId));
    }

    /** {@link #answer(int, JsonNode, Integer, String)} of an answer, with its {@code Retry-After}. */
    static PlatformAnswer answer(StreamingHttp.Answer answer, JsonNode body, String what) {
        return answer(answer.status(), body, PlatformResponses.retryAfterSeconds(answer.header("Retry-After")), what);
    }
}
