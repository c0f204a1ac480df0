package dev.herald.delivery.provider.linkedin;

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
 * LinkedIn's error answers ({@code {"status", "serviceErrorCode", "code", "message"}}) as {@link TargetError}s and
 * {@link PlatformAnswer}s, filed by {@link #TABLE}
 * (https://learn.microsoft.com/linkedin/shared/api-guide/concepts/error-handling): 429 and 5xx retryable whatever
 * their code, other 4xx final, 401 a refused token; LinkedIn's {@code code} picks the row, its {@code serviceErrorCode}
 * is {@code provider_code}.
 */
final class LinkedInErrors {
    static final ErrorTable TABLE = ErrorTable.of(
            "LinkedIn",
            reauth("EXPIRED_ACCESS_TOKEN", "the account's LinkedIn access token expired"),
            reauth("INVALID_ACCESS_TOKEN", "LinkedIn no longer accepts the account's access token"),
            reauth("REVOKED_ACCESS_TOKEN", "the account's owner revoked Herald's access on LinkedIn"),
            refuse(
                    "ACCESS_DENIED",
                    CATEGORY_AUTH,
                    ACTION_RECONNECT,
                    "the account's LinkedIn grant does not allow this (a permission missing, or a Page the member may"
                            + " not post for); reconnect it, granting every permission asked for"),
            refuse(
                    "DUPLICATE_POST",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "the post duplicates one the account published recently"),
            refuse(
                    "PROCESSING_FAILED",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "LinkedIn could not process the video; nothing was posted"),
            refuse("http 400", CATEGORY_PLATFORM, ACTION_CONTACT_SUPPORT, "LinkedIn found the request invalid"),
            reauth("http 401", "LinkedIn refused the access token, also after it was refreshed"),
            refuse(
                    "http 422",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "LinkedIn refused the post's content (a duplicate of a recent post, a text too long, media it"
                            + " does not take)"),
            retry("http 429", CATEGORY_RATE_LIMIT, "the member's or Herald's daily LinkedIn call limit was reached"));

    private LinkedInErrors() {}

    /** An answer before the post call: nothing was created, so a refusal (a 401 a refused token) whatever the status. */
    static PlatformAnswer refusal(int status, Response response, JsonNode body, String what) {
        if (status == 401) {
            return tokenRefused(status, body);
        }
        return new PlatformAnswer.Refused(error(status, response, body, what));
    }

    /** A 401: the token is refreshed once, and the account needs reconnecting when LinkedIn refuses the fresh one. */
    static PlatformAnswer tokenRefused(int status, JsonNode body) {
        ErrorTable.Row row = TABLE.row(status, code(body));
        if (row.kind() != ErrorTable.Kind.TOKEN_REFUSED) {
            row = TABLE.httpRow(401);
        }
        return new PlatformAnswer.TokenRefused(TABLE.error(
                row, "LinkedIn refused the access token", status, code(body), message(body), details(status, body)));
    }

    /** 429 and 5xx are worth another attempt; other refusals are LinkedIn's final word on this post. */
    static TargetError error(int status, Response response, JsonNode body, String what) {
        Map<String, Object> details = details(status, body);
        Integer retryAfter = PlatformResponses.retryAfterSeconds(response);
        if (status == 429 && retryAfter != null) {
            details.put("retry_after_seconds", retryAfter);
        }
        ErrorTable.Row row = status == 429 || status >= 500 ? TABLE.httpRow(status) : TABLE.row(status, code(body));
        return TABLE.error(row, what, status, code(body), message(body), details);
    }

    /** A video LinkedIn could not process ({@code processingFailureReason}, when given, quoted). */
    static TargetError processingFailed(String why, Map<String, Object> details) {
        return TABLE.error(TABLE.find("PROCESSING_FAILED"), "LinkedIn did not post the video", 0, null, why, details);
    }

    static Map<String, Object> details(int status, JsonNode body) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        if (body.hasNonNull("serviceErrorCode")) {
            details.put("provider_code", body.get("serviceErrorCode").asText());
        }
        return details;
    }

    private static String code(JsonNode body) {
        return body.path("code").isTextual() ? body.get("code").asText() : null;
    }

    private static String message(JsonNode body) {
        return body.path("message").asText("");
    }
}
