package dev.herald.delivery.provider.tiktok;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.media.StreamingHttp;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * TikTok's v2 error answers ({@code {"error": {"code", "message", "log_id"}}}, {@code code} {@code ok} on success) as
 * {@link PlatformAnswer}s: {@code access_token_invalid} (401) a refused token; {@code rate_limit_exceeded}
 * (429) and 5xx retryable, with {@code Retry-After} when given; the creator's and the app's daily caps, a ban, an
 * unaudited app, a privacy level TikTok will not take, missing scopes and invalid parameters final. The code is
 * {@code provider_code}, TikTok's {@code log_id} {@code provider_log_id} (TikTok support asks for it).
 */
final class TikTokErrors {
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

    /** A failed answer; the caller decides whether a retryable one may have done something (it never does for FILE_UPLOAD init). */
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
        String message = PlatformResponses.message(
                what, status, body.path("error").path("message").asText(null));
        if (status == 401 && !"scope_not_authorized".equals(code) || "access_token_invalid".equals(code)) {
            return new PlatformAnswer.TokenRefused(
                    new TargetError(TargetError.PROVIDER_ERROR, message, false, details));
        }
        if ("scope_not_authorized".equals(code) || "scope_permission_missed".equals(code)) {
            return new PlatformAnswer.Refused(new TargetError(
                    TargetError.PROVIDER_ERROR,
                    message + " The account's TikTok"
                            + " grant lacks the video.publish scope; reconnect the account to grant it.",
                    false,
                    details));
        }
        // An upload URL's refusal may carry no JSON at all (a bare 4xx or 5xx): no code, and Set.of takes no null.
        if (code != null && CANNOT_POST.contains(code)) {
            details.put("reason", "creator_cannot_post");
            return new PlatformAnswer.Refused(new TargetError(
                    TargetError.PROVIDER_ERROR,
                    message + " TikTok takes no post" + " from this account through Herald now; nothing was published.",
                    false,
                    details));
        }
        if (status == 429 || "rate_limit_exceeded".equals(code) || status >= 500 || "internal_error".equals(code)) {
            if (retryAfterSeconds != null) {
                details.put("retry_after_seconds", retryAfterSeconds);
            }
            return new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR, message, true, details));
        }
        return new PlatformAnswer.Refused(new TargetError(TargetError.PROVIDER_ERROR, message, false, details));
    }

    /**
     * A {@code FAILED} post's {@code fail_reason} (TikTok's table): {@code internal} and {@code video_pull_failed}
     * retryable (TikTok says so), the format, duration, frame rate and picture size checks final (the same file fails
     * again), {@code publish_cancelled} final; an unknown reason final.
     */
    static TargetError failed(String failReason, String publishId) {
        String reason = failReason == null || failReason.isBlank() ? "unknown" : failReason;
        boolean retryable = "internal".equals(reason) || "video_pull_failed".equals(reason);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("platform", "tiktok");
        details.put("provider_code", reason);
        details.put("publish_id", publishId);
        return new TargetError(
                TargetError.PROVIDER_ERROR,
                "TikTok could not publish the video (" + reason + ")"
                        + (retryable
                                ? "; nothing was published and the next attempt uploads it again."
                                : "; nothing was published."),
                retryable,
                details);
    }

    /** {@link #answer(int, JsonNode, Integer, String)} of an answer, with its {@code Retry-After}. */
    static PlatformAnswer answer(StreamingHttp.Answer answer, JsonNode body, String what) {
        return answer(answer.status(), body, PlatformResponses.retryAfterSeconds(answer.header("Retry-After")), what);
    }
}
