package dev.herald.delivery.provider.linkedin;

import static dev.herald.delivery.provider.PublicationSteps.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.support.ErrorTables;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

class LinkedInErrorsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void anExpiredLinkedInTokenAsksForReconnect() {
        PlatformAnswer answer = LinkedInErrors.refusal(
                401,
                Response.status(401).build(),
                body(401, 65602, "EXPIRED_ACCESS_TOKEN", "The token used in the request has expired"),
                "LinkedIn refused the post");

        assertThat(answer).isInstanceOf(PlatformAnswer.TokenRefused.class);
        assertThat(errorOf(answer).action()).isEqualTo(TargetError.ACTION_RECONNECT);
        assertThat(errorOf(answer).message()).contains("expired").contains("EXPIRED_ACCESS_TOKEN, HTTP 401");
    }

    @Test
    void accessDeniedAsksForReconnectAndIsNotRetried() {
        TargetError error = LinkedInErrors.error(
                403,
                Response.status(403).build(),
                body(403, 100, "ACCESS_DENIED", "Not enough permissions"),
                "LinkedIn refused the post");

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_AUTH);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_RECONNECT);
        assertThat(error.retryable()).isFalse();
    }

    @Test
    void anUnprocessablePostAsksToEditIt() {
        TargetError error = LinkedInErrors.error(
                422,
                Response.status(422).build(),
                body(422, 100, null, "ERROR :: /commentary :: duplicate post"),
                "LinkedIn refused the post");

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_CONTENT);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_EDIT_CONTENT);
        assertThat(error.message())
                .isEqualTo(
                        "LinkedIn refused the post: LinkedIn refused the post's content (a duplicate of a recent post,"
                                + " a text too long, media it does not take). LinkedIn said: \"ERROR :: /commentary :: duplicate"
                                + " post\" (HTTP 422).");
    }

    @Test
    void aRateLimitIsRetriedAfterWhatLinkedInSays() {
        TargetError error = LinkedInErrors.error(
                429,
                Response.status(429).header("Retry-After", "120").build(),
                body(429, 0, null, "Too many"),
                "LinkedIn refused the post");

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_RATE_LIMIT);
        assertThat(error.retryable()).isTrue();
        assertThat(error.details()).containsEntry("retry_after_seconds", 120);
    }

    @Test
    void aVideoLinkedInCouldNotProcessAsksForOtherMedia() {
        TargetError error = LinkedInErrors.processingFailed("Video duration is too short", new java.util.HashMap<>());

        assertThat(error.action()).isEqualTo(TargetError.ACTION_REPLACE_MEDIA);
        assertThat(error.message()).contains("Video duration is too short");
    }

    @Test
    void theReferenceListsEveryRow() {
        ErrorTables.assertListed("LinkedIn", LinkedInErrors.TABLE);
    }

    private static JsonNode body(int status, int serviceErrorCode, String code, String message) {
        var body = MAPPER.createObjectNode().put("status", status).put("message", message);
        if (serviceErrorCode > 0) {
            body.put("serviceErrorCode", serviceErrorCode);
        }
        if (code != null) {
            body.put("code", code);
        }
        return body;
    }
}
