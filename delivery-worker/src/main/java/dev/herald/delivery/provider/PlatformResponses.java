package dev.herald.delivery.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.media.MediaRefused;
import dev.herald.delivery.provider.media.StreamingHttp;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reading a platform's HTTP answers the way every live publisher does. */
public final class PlatformResponses {
    private PlatformResponses() {}

    /** The body as a JSON object; an empty one when there is none or it is not JSON (an HTML error page). */
    public static JsonNode body(ObjectMapper mapper, Response response) {
        try {
            return body(mapper, response.readEntity(String.class));
        } catch (RuntimeException e) {
            return mapper.createObjectNode();
        }
    }

    /** The same for a body read already (a {@code StreamingHttp} answer's). */
    public static JsonNode body(ObjectMapper mapper, String text) {
        try {
            JsonNode body = text == null || text.isBlank() ? null : mapper.readTree(text);
            return body == null || !body.isObject() ? mapper.createObjectNode() : body;
        } catch (JsonProcessingException | RuntimeException e) {
            return mapper.createObjectNode();
        }
    }

    public static String bearer(ProviderAccess access) {
        return "Bearer " + access.accessToken();
    }

    /** {@code Retry-After} in seconds (the delta form), or null. */
    public static Integer retryAfterSeconds(Response response) {
        return retryAfterSeconds(response.getHeaderString("Retry-After"));
    }

    /** A {@code Retry-After} header's value in seconds (the delta form), or null. */
    public static Integer retryAfterSeconds(String value) {
        return value != null && value.strip().matches("\\d{1,6}") ? Integer.parseInt(value.strip()) : null;
    }

    /**
     * A check's failure that says nothing final about what the platform processed (a rate limit, an outage, a
     * retryable refusal of the post made from it): an unknown outcome, so the ledger keeps the reference for the next
     * check instead of dropping it and uploading again.
     */
    public static PlatformAnswer keptForNextCheck(PlatformAnswer answer) {
        return answer instanceof PlatformAnswer.Refused refused
                        && refused.error().retryable()
                ? new PlatformAnswer.Unknown(refused.error())
                : answer;
    }

    /**
     * A platform's upload host refused the media's bytes ({@code what} says which): nothing was published, and an
     * upload is started anew by the next attempt, so it is retryable unless the host judged the request itself
     * (a 4xx other than 408 and 429). The host's 401 or 403 is about its upload URL, not the account's grant.
     */
    public static PlatformAnswer uploadRefused(StreamingHttp.Answer answer, String what) {
        int status = answer.status();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("provider_status", status);
        Integer retryAfter = retryAfterSeconds(answer.header("Retry-After"));
        if (status == 429 && retryAfter != null) {
            details.put("retry_after_seconds", retryAfter);
        }
        ErrorTable.Row row =
                status == 401 || status == 403 ? ErrorTable.HTTP.find("http 4xx") : ErrorTable.HTTP.httpRow(status);
        return new PlatformAnswer.Refused(
                ErrorTable.HTTP.error(row, what + "; nothing was published", status, null, null, details));
    }

    /**
     * An upload that broke off (the media's host or the platform's): nothing was published, and the next attempt
     * uploads again; a source {@link MediaRefused refused} keeps its own error.
     */
    public static PlatformAnswer brokenUpload(String platform, Throwable failure) {
        if (failure instanceof MediaRefused refused) {
            return new PlatformAnswer.Refused(refused.error());
        }
        return new PlatformAnswer.Refused(ErrorTable.HTTP.error(
                ErrorTable.shared("upload_interrupted"),
                "The upload to " + platform + " broke off",
                0,
                failure.getClass().getSimpleName(),
                null,
                Map.of("reason", "upload_interrupted")));
    }

    /** An earlier call's outcome is unknown and the platform will not show whether it published: final, never a second post. */
    public static PlatformAnswer unconfirmed(String platform, String where, Map<String, Object> details) {
        return new PlatformAnswer.Refused(new TargetError(
                TargetError.PUBLICATION_UNCONFIRMED,
                "An earlier call to " + platform
                        + " got no answer, and Herald cannot tell from " + where + " whether it published; check "
                        + where
                        + " before posting again.",
                false,
                details));
    }
}
