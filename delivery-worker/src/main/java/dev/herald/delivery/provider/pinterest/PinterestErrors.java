package dev.herald.delivery.provider.pinterest;

import static dev.herald.common.wire.TargetError.ACTION_CONTACT_SUPPORT;
import static dev.herald.common.wire.TargetError.ACTION_EDIT_CONTENT;
import static dev.herald.common.wire.TargetError.ACTION_RECONNECT;
import static dev.herald.common.wire.TargetError.ACTION_REPLACE_MEDIA;
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
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pinterest's error answers ({@code {"code": <int>, "message": "..."}}) as {@link PlatformAnswer}s, filed by
 * {@link #TABLE} (Pinterest API v5's error responses): 401 a refused token, 429 retryable, 5xx (and a 2xx without what
 * was asked) an unknown outcome whatever their code, other 4xx final; the code is {@code provider_code}.
 */
final class PinterestErrors {
    static final ErrorTable TABLE = ErrorTable.of(
            "Pinterest",
            refuse("code 1", CATEGORY_CONTENT, ACTION_EDIT_CONTENT, "Pinterest found a field of the pin invalid"),
            reauth("code 2", "Pinterest no longer accepts the account's access token"),
            refuse(
                    "code 3",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "the pin's board does not exist or the account may not pin to it; choose another board"),
            refuse(
                    "code 4",
                    CATEGORY_PLATFORM,
                    ACTION_CONTACT_SUPPORT,
                    "Pinterest no longer knows the video Herald uploaded"),
            retry("code 8", CATEGORY_RATE_LIMIT, "Pinterest's rate limit for the account was reached"),
            refuse(
                    "code 29",
                    CATEGORY_AUTH,
                    ACTION_RECONNECT,
                    "the account's Pinterest grant lacks a scope this needs (pins:write); reconnect it to grant it"),
            refuse(
                    "video failed",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "Pinterest could not process the video; nothing was pinned"),
            reauth("http 401", "Pinterest no longer accepts the account's access token"));

    private PinterestErrors() {}

    static PlatformAnswer answer(int status, Response response, JsonNode body, String what) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        String code =
                body.path("code").isNumber() ? String.valueOf(body.get("code").asInt()) : null;
        if (code != null) {
            details.put("provider_code", code);
        }
        Integer retryAfter = PlatformResponses.retryAfterSeconds(response);
        if (status == 429 && retryAfter != null) {
            details.put("retry_after_seconds", retryAfter);
        }
        String said = body.path("message").asText("");
        String ref = code == null ? null : "code " + code;
        ErrorTable.Row row = TABLE.row(status, ref);
        if (status == 401 || row.kind() == ErrorTable.Kind.TOKEN_REFUSED) {
            ErrorTable.Row refused = row.kind() == ErrorTable.Kind.TOKEN_REFUSED ? row : TABLE.httpRow(401);
            return new PlatformAnswer.TokenRefused(TABLE.error(refused, what, status, ref, said, details));
        }
        if (status == 429) {
            ErrorTable.Row limited = row.retryable() ? row : TABLE.httpRow(429);
            return new PlatformAnswer.Refused(TABLE.error(limited, what, status, ref, said, details));
        }
        if (status >= 500 || status / 100 == 2) {
            return new PlatformAnswer.Unknown(TABLE.error(TABLE.httpRow(status), what, status, ref, said, details));
        }
        // Only a 429 is worth another attempt at Pinterest: a rate limit's code with another status is not.
        ErrorTable.Row refused = row.retryable() ? TABLE.httpRow(status) : row;
        return new PlatformAnswer.Refused(TABLE.error(refused, what, status, ref, said, details));
    }

    /** A video Pinterest could not process: nothing was pinned. */
    static TargetError videoFailed(String mediaId) {
        return TABLE.error(
                TABLE.find("video failed"),
                "Pinterest did not pin the video",
                0,
                null,
                null,
                Map.of("reason", "processing_failed", "media_id", mediaId));
    }
}
