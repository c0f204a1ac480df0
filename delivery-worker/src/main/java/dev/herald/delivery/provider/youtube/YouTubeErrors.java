package dev.herald.delivery.provider.youtube;

import static dev.herald.common.wire.TargetError.ACTION_CONTACT_SUPPORT;
import static dev.herald.common.wire.TargetError.ACTION_EDIT_CONTENT;
import static dev.herald.common.wire.TargetError.ACTION_RECONNECT;
import static dev.herald.common.wire.TargetError.ACTION_RETRY_LATER;
import static dev.herald.common.wire.TargetError.CATEGORY_AUTH;
import static dev.herald.common.wire.TargetError.CATEGORY_CONTENT;
import static dev.herald.common.wire.TargetError.CATEGORY_PLATFORM;
import static dev.herald.common.wire.TargetError.CATEGORY_RATE_LIMIT;
import static dev.herald.delivery.provider.ErrorTable.reauth;
import static dev.herald.delivery.provider.ErrorTable.refuse;
import static dev.herald.delivery.provider.ErrorTable.retry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.ErrorTable;
import dev.herald.delivery.provider.PlatformAnswer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * YouTube's error answers ({@code {"error": {"code", "message", "errors": [{"reason", "domain"}]}}}) as
 * {@link PlatformAnswer}s, filed by {@link #TABLE} by their first reason
 * (https://developers.google.com/youtube/v3/docs/errors, videos.insert's errors): 401 a refused token; 429 and the
 * rate and quota reasons retryable, with {@code Retry-After}; 5xx retryable; any other 4xx final with the reason as
 * {@code provider_code}.
 */
final class YouTubeErrors {
    static final ErrorTable TABLE = ErrorTable.of(
            "YouTube",
            reauth("authError", "Google no longer accepts the account's access token"),
            reauth(
                    "youtubeSignupRequired",
                    "the Google account has no YouTube channel yet; create one, then reconnect the account"),
            retry("quotaExceeded", CATEGORY_RATE_LIMIT, "Herald's daily YouTube API quota is used up"),
            retry("rateLimitExceeded", CATEGORY_RATE_LIMIT, "YouTube's rate limit was reached"),
            retry("userRateLimitExceeded", CATEGORY_RATE_LIMIT, "YouTube's rate limit for the account was reached"),
            refuse(
                    "uploadLimitExceeded",
                    CATEGORY_RATE_LIMIT,
                    ACTION_RETRY_LATER,
                    "the channel reached YouTube's cap of uploads for the day; post again in 24 hours"),
            refuse(
                    "forbidden",
                    CATEGORY_AUTH,
                    ACTION_RECONNECT,
                    "YouTube refused the request as not authorized for the account"),
            refuse(
                    "insufficientPermissions",
                    CATEGORY_AUTH,
                    ACTION_RECONNECT,
                    "the account's Google grant lacks the YouTube upload scope; reconnect it to grant it"),
            refuse(
                    "authenticatedUserAccountClosed",
                    CATEGORY_PLATFORM,
                    ACTION_CONTACT_SUPPORT,
                    "the channel's YouTube account is closed"),
            refuse(
                    "authenticatedUserAccountSuspended",
                    CATEGORY_PLATFORM,
                    ACTION_CONTACT_SUPPORT,
                    "the channel's YouTube account is suspended"),
            refuse(
                    "invalidTitle",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "the video's title is empty, longer than 100 characters, or has < or >"),
            refuse(
                    "invalidDescription",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "the video's description is longer than 5,000 bytes or has < or >"),
            refuse(
                    "invalidTags",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "the video's tags are longer than YouTube takes (500 characters)"),
            refuse(
                    "invalidCategoryId",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "the video's category is not one YouTube has"),
            refuse(
                    "invalidPublishAt",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "the video's scheduled publishing time is not one YouTube takes"),
            refuse(
                    "invalidVideoMetadata",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "YouTube found the video's metadata invalid"),
            retry("backendError", CATEGORY_PLATFORM, "YouTube failed on its side"),
            retry(
                    "session lapsed",
                    CATEGORY_PLATFORM,
                    "YouTube's upload session lapsed before the upload finished; the next attempt uploads again"),
            reauth("http 401", "Google no longer accepts the account's access token"));

    private YouTubeErrors() {}

    static String reason(JsonNode body) {
        JsonNode errors = body.path("error").path("errors");
        return errors.isArray() && !errors.isEmpty()
                ? errors.get(0).path("reason").asText(null)
                : null;
    }

    /**
     * {@code mayHaveCompleted}: whether the call could have finished the upload (a PUT of the last bytes): its 5xx is
     * then an unknown outcome, which the next attempt settles by asking the session.
     */
    static PlatformAnswer answer(
            int status, JsonNode body, Integer retryAfterSeconds, String what, boolean mayHaveCompleted) {
        String reason = reason(body);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        if (reason != null) {
            details.put("provider_code", reason);
        }
        String said = body.path("error").path("message").asText(null);
        ErrorTable.Row row = TABLE.row(status, reason);
        if (status == 401 || row.kind() == ErrorTable.Kind.TOKEN_REFUSED) {
            ErrorTable.Row refused = row.kind() == ErrorTable.Kind.TOKEN_REFUSED ? row : TABLE.httpRow(401);
            return new PlatformAnswer.TokenRefused(TABLE.error(refused, what, status, reason, said, details));
        }
        if (status == 429 || status >= 500 || row.retryable()) {
            if (retryAfterSeconds != null) {
                details.put("retry_after_seconds", retryAfterSeconds);
            }
            ErrorTable.Row again = row.retryable() ? row : TABLE.httpRow(status);
            TargetError error = TABLE.error(again, what, status, reason, said, details);
            return status >= 500 && mayHaveCompleted
                    ? new PlatformAnswer.Unknown(error)
                    : new PlatformAnswer.Refused(error);
        }
        return new PlatformAnswer.Refused(TABLE.error(row, what, status, reason, said, details));
    }

    /** A session that lapsed unfinished made no video: the next attempt uploads again. */
    static PlatformAnswer lapsed(int status) {
        return new PlatformAnswer.Refused(TABLE.error(
                TABLE.find("session lapsed"),
                "YouTube did not take the video",
                status,
                null,
                null,
                Map.of("provider_status", status)));
    }
}
