package dev.herald.delivery.provider.youtube;

import static dev.herald.delivery.provider.PublicationSteps.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.support.ErrorTables;
import org.junit.jupiter.api.Test;

class YouTubeErrorsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void aRefusedGoogleTokenAsksForReconnect() {
        PlatformAnswer answer = answer(401, "authError", "Invalid Credentials", false);

        assertThat(answer).isInstanceOf(PlatformAnswer.TokenRefused.class);
        assertThat(errorOf(answer).action()).isEqualTo(TargetError.ACTION_RECONNECT);
    }

    @Test
    void anExhaustedQuotaIsRetriedLater() {
        TargetError error = errorOf(answer(
                403, "quotaExceeded", "The request cannot be completed because you have exceeded your quota.", false));

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_RATE_LIMIT);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_RETRY_LATER);
        assertThat(error.retryable()).isTrue();
    }

    @Test
    void theDailyUploadCapIsFinalAndSaysToPostAgainLater() {
        TargetError error = errorOf(answer(
                400, "uploadLimitExceeded", "The user has exceeded the number of videos they may upload.", false));

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_RATE_LIMIT);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_RETRY_LATER);
        assertThat(error.retryable()).isFalse();
    }

    @Test
    void anInvalidTitleOrDescriptionAsksToEditThePostInPlainWords() {
        TargetError title =
                errorOf(answer(400, "invalidTitle", "The request metadata specifies an invalid video title.", false));
        TargetError description = errorOf(answer(400, "invalidDescription", "bad description", false));

        assertThat(title.action()).isEqualTo(TargetError.ACTION_EDIT_CONTENT);
        assertThat(description.action()).isEqualTo(TargetError.ACTION_EDIT_CONTENT);
        assertThat(title.message())
                .isEqualTo(
                        "YouTube refused the video: the video's title is empty, longer than 100 characters, or has < or"
                                + " >. YouTube said: \"The request metadata specifies an invalid video title.\" (invalidTitle,"
                                + " HTTP 400).");
    }

    @Test
    void aForbiddenUploadAsksForReconnect() {
        TargetError error = errorOf(answer(403, "forbidden", "Forbidden", false));

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_AUTH);
        assertThat(error.retryable()).isFalse();
    }

    @Test
    void aServerErrorOnTheLastBytesMayHaveMadeTheVideo() {
        PlatformAnswer answer = answer(503, "backendError", "Backend Error", true);

        assertThat(answer).isInstanceOf(PlatformAnswer.Unknown.class);
        assertThat(errorOf(answer).retryable()).isTrue();
    }

    @Test
    void theReferenceListsEveryRow() {
        ErrorTables.assertListed("YouTube", YouTubeErrors.TABLE);
    }

    private static PlatformAnswer answer(int status, String reason, String message, boolean mayHaveCompleted) {
        JsonNode body = MAPPER.createObjectNode()
                .set(
                        "error",
                        MAPPER.createObjectNode()
                                .put("code", status)
                                .put("message", message)
                                .set(
                                        "errors",
                                        MAPPER.createArrayNode()
                                                .add(MAPPER.createObjectNode().put("reason", reason))));
        return YouTubeErrors.answer(status, body, null, "YouTube refused the video", mayHaveCompleted);
    }
}
