package dev.herald.delivery.provider.meta;

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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Meta's Graph API errors ({@code {"error": {"code", "error_subcode", "message", "is_transient"}}}), as Facebook's
 * and Instagram's publishers read them, filed by {@link #TABLE}
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling/, Instagram's error codes reference): a
 * subcode's row before its code's; code 190 (or 102) or HTTP 401 is a refused token; rate limits (4, 17, 32, 341, 613,
 * 80001-80014), 1, 2, {@code is_transient} and the Instagram subcodes Meta says to try again are retryable and created
 * nothing; a 5xx (or a success without the expected id) may have created the post; anything else is final.
 */
public final class GraphErrors {
    static final ErrorTable TABLE = ErrorTable.of(
            "Meta",
            reauth("code 190", "Meta no longer accepts the account's access token (expired, revoked or invalid)"),
            reauth("code 102", "the account's Meta session has expired"),
            reauth("subcode 458", "the account removed Herald's app from its Meta settings"),
            reauth("subcode 459", "Meta checkpointed the account; its owner must sign in to Facebook to clear it"),
            reauth("subcode 460", "the account's password changed since it was connected"),
            reauth("subcode 463", "the account's access token expired"),
            reauth("subcode 464", "the account's owner has not confirmed the Meta account"),
            reauth("subcode 467", "the account's access token is no longer valid"),
            refuse(
                    "code 10",
                    CATEGORY_AUTH,
                    ACTION_RECONNECT,
                    "the account's grant lacks a permission the post needs; reconnect it, granting every permission"
                            + " asked for"),
            refuse(
                    "code 200-299",
                    CATEGORY_AUTH,
                    ACTION_RECONNECT,
                    "the account's grant lacks a permission the post needs; reconnect it, granting every permission"
                            + " asked for"),
            refuse(
                    "code 3",
                    CATEGORY_PLATFORM,
                    ACTION_CONTACT_SUPPORT,
                    "Herald's Meta app lacks the capability this needs"),
            retry("code 1", CATEGORY_PLATFORM, "Meta failed with an unknown error"),
            retry("code 2", CATEGORY_PLATFORM, "Meta's service is unavailable for now"),
            retry("code 4", CATEGORY_RATE_LIMIT, "Herald's Meta app reached its call limit"),
            retry("code 17", CATEGORY_RATE_LIMIT, "the account reached its Graph API call limit"),
            retry("code 32", CATEGORY_RATE_LIMIT, "the Page reached its call limit"),
            retry("code 341", CATEGORY_RATE_LIMIT, "the application's limit was reached"),
            retry("code 613", CATEGORY_RATE_LIMIT, "a Graph API rate limit was reached"),
            retry("code 80001-80014", CATEGORY_RATE_LIMIT, "a business use case rate limit was reached"),
            refuse("code 100", CATEGORY_CONTENT, ACTION_EDIT_CONTENT, "Meta found a parameter of the post invalid"),
            refuse("code 368", CATEGORY_CONTENT, ACTION_EDIT_CONTENT, "Meta blocked the post under its policies"),
            refuse(
                    "code 506",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "the post duplicates one the account published just before"),
            refuse(
                    "code 9004",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "Instagram could not fetch the media from its URL, or it is not an image or a video"),
            refuse("code 9007", CATEGORY_PLATFORM, ACTION_RETRY_LATER, "the media container was not ready to publish"),
            retry("subcode 2207001", CATEGORY_PLATFORM, "Instagram failed on its side"),
            retry("subcode 2207003", CATEGORY_MEDIA, "Instagram took too long downloading the media"),
            refuse(
                    "subcode 2207004",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "the image is larger than Instagram takes (8 MiB)"),
            refuse(
                    "subcode 2207005",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "the image's format is not one Instagram takes (JPEG)"),
            retry("subcode 2207008", CATEGORY_PLATFORM, "Instagram failed to publish the container for now"),
            refuse(
                    "subcode 2207009",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "the image's aspect ratio is outside what Instagram takes (4:5 to 1.91:1)"),
            refuse(
                    "subcode 2207010",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "the caption is longer than Instagram takes (2,200 characters, 30 hashtags, 20 mentions)"),
            retry("subcode 2207020", CATEGORY_PLATFORM, "the media container expired before it was published"),
            refuse(
                    "subcode 2207023",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "the media's type is not one Instagram expects"),
            refuse(
                    "subcode 2207026",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "the video's format is not one Instagram takes (MP4 or MOV, H.264 or HEVC, AAC audio)"),
            retry("subcode 2207032", CATEGORY_PLATFORM, "Instagram failed to create the media container"),
            refuse(
                    "subcode 2207042",
                    CATEGORY_RATE_LIMIT,
                    ACTION_RETRY_LATER,
                    "the account reached Instagram's cap of posts through the API in 24 hours; post again tomorrow"),
            refuse(
                    "subcode 2207050",
                    CATEGORY_AUTH,
                    ACTION_RECONNECT,
                    "the Instagram account is inactive, checkpointed or restricted; its owner must sign in to the"
                            + " Instagram app to resolve it"),
            refuse(
                    "subcode 2207051",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "Instagram restricted the post as suspected spam"),
            refuse(
                    "subcode 2207052",
                    CATEGORY_MEDIA,
                    ACTION_REPLACE_MEDIA,
                    "Instagram could not fetch the media from its URL"),
            retry("subcode 2207053", CATEGORY_PLATFORM, "Instagram had an unknown upload error"),
            refuse(
                    "subcode 2207057",
                    CATEGORY_CONTENT,
                    ACTION_EDIT_CONTENT,
                    "the thumbnail offset is outside the video's duration"),
            retry("is_transient", CATEGORY_PLATFORM, "Meta reports a transient failure"),
            refuse("container ERROR", CATEGORY_MEDIA, ACTION_REPLACE_MEDIA, "Instagram could not process the media"),
            retry("container EXPIRED", CATEGORY_PLATFORM, "the media container expired before it was published"),
            reauth("http 401", "Meta no longer accepts the account's access token"));

    /** An Instagram subcode quoted in a container's {@code status} text. */
    private static final Pattern SUBCODE = Pattern.compile("\\b(2207\\d{3})\\b");

    private GraphErrors() {}

    public static PlatformAnswer answer(int status, JsonNode body, String what) {
        JsonNode error = body.path("error");
        Integer code = error.path("code").isNumber() ? error.get("code").asInt() : null;
        Integer subcode = error.path("error_subcode").isNumber()
                ? error.get("error_subcode").asInt()
                : null;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        if (code != null) {
            details.put("provider_code", String.valueOf(code));
        }
        if (subcode != null) {
            details.put("provider_subcode", String.valueOf(subcode));
        }
        String said = error.path("message").asText("");
        String ref = code == null ? null : subcode == null ? "code " + code : "code " + code + "/" + subcode;
        ErrorTable.Row coded = TABLE.find(subcode == null ? null : "subcode " + subcode, codeKey(code));
        if (status == 401 || coded != null && coded.kind() == ErrorTable.Kind.TOKEN_REFUSED) {
            ErrorTable.Row row =
                    coded != null && coded.kind() == ErrorTable.Kind.TOKEN_REFUSED ? coded : TABLE.httpRow(401);
            return new PlatformAnswer.TokenRefused(TABLE.error(row, what, status, ref, said, details));
        }
        if (coded != null && coded.retryable()) {
            return new PlatformAnswer.Refused(TABLE.error(coded, what, status, ref, said, details));
        }
        if (error.path("is_transient").asBoolean(false)) {
            return new PlatformAnswer.Refused(
                    TABLE.error(TABLE.find("is_transient"), what, status, ref, said, details));
        }
        if (status == 429) {
            return new PlatformAnswer.Refused(TABLE.error(TABLE.httpRow(429), what, status, ref, said, details));
        }
        if (status >= 500 || status / 100 == 2) {
            // A 5xx, or a success without the expected id: the post may exist.
            return new PlatformAnswer.Unknown(TABLE.error(TABLE.httpRow(status), what, status, ref, said, details));
        }
        ErrorTable.Row row = coded != null ? coded : TABLE.httpRow(status);
        return new PlatformAnswer.Refused(TABLE.error(row, what, status, ref, said, details));
    }

    /**
     * An Instagram container that ended {@code ERROR} or {@code EXPIRED} ({@code statusCode}), filed by the subcode its
     * {@code status} text quotes when it quotes one: nothing was published either way.
     */
    public static TargetError containerFailed(
            String statusCode, String statusText, String what, Map<String, Object> details) {
        Matcher subcode = SUBCODE.matcher(statusText == null ? "" : statusText);
        String found = subcode.find() ? subcode.group(1) : null;
        ErrorTable.Row row = TABLE.find(found == null ? null : "subcode " + found, "container " + statusCode);
        if (row == null) {
            row = TABLE.find("container ERROR");
        }
        String ref = found == null ? statusCode : statusCode + ", subcode " + found;
        return TABLE.error(row, what, 0, ref, statusText, details);
    }

    private static String codeKey(Integer code) {
        if (code == null) {
            return null;
        }
        if (code >= 200 && code <= 299) {
            return "code 200-299";
        }
        if (code >= 80001 && code <= 80014) {
            return "code 80001-80014";
        }
        return "code " + code;
    }
}
