package dev.herald.delivery.provider.pinterest;

import static dev.herald.delivery.provider.PublicationSteps.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.support.ErrorTables;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

class PinterestErrorsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void aRefusedPinterestTokenAsksForReconnect() {
        PlatformAnswer answer = answer(401, 2, "Authentication failed.");

        assertThat(answer).isInstanceOf(PlatformAnswer.TokenRefused.class);
        assertThat(errorOf(answer).action()).isEqualTo(TargetError.ACTION_RECONNECT);
    }

    @Test
    void aMissingScopeAsksForReconnectAndIsNotRetried() {
        TargetError error = errorOf(answer(403, 29, "You are not permitted to access that resource."));

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_AUTH);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_RECONNECT);
        assertThat(error.retryable()).isFalse();
    }

    @Test
    void aMissingBoardAsksToEditThePostInPlainWords() {
        TargetError error = errorOf(answer(404, 3, "Board not found."));

        assertThat(error.action()).isEqualTo(TargetError.ACTION_EDIT_CONTENT);
        assertThat(error.message())
                .isEqualTo("Pinterest refused the pin: the pin's board does not exist or the account may not pin to it;"
                        + " choose another board. Pinterest said: \"Board not found.\" (code 3, HTTP 404).");
    }

    @Test
    void aRateLimitIsRetriedAndAServerErrorMayHavePinned() {
        PlatformAnswer limited = answer(429, 8, "You have exceeded your rate limit. Try again later.");
        PlatformAnswer failed = answer(500, 1, "Something went wrong on our end. Sorry about that.");

        assertThat(errorOf(limited).category()).isEqualTo(TargetError.CATEGORY_RATE_LIMIT);
        assertThat(errorOf(limited).retryable()).isTrue();
        assertThat(failed).isInstanceOf(PlatformAnswer.Unknown.class);
        assertThat(errorOf(failed).category()).isEqualTo(TargetError.CATEGORY_PLATFORM);
        assertThat(errorOf(failed).action()).isEqualTo(TargetError.ACTION_RETRY_LATER);
    }

    @Test
    void theReferenceListsEveryRow() {
        ErrorTables.assertListed("Pinterest", PinterestErrors.TABLE);
    }

    private static PlatformAnswer answer(int status, int code, String message) {
        JsonNode body = MAPPER.createObjectNode().put("code", code).put("message", message);
        return PinterestErrors.answer(status, Response.status(status).build(), body, "Pinterest refused the pin");
    }
}
