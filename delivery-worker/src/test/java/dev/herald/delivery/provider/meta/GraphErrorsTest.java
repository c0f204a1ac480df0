package dev.herald.delivery.provider.meta;

import static dev.herald.delivery.provider.PublicationSteps.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.support.ErrorTables;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GraphErrorsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void anExpiredGraphTokenAsksForReconnect() {
        PlatformAnswer answer = GraphErrors.answer(
                400,
                error(190, 463, "Error validating access token: Session has expired."),
                "Facebook refused the post");

        assertThat(answer).isInstanceOf(PlatformAnswer.TokenRefused.class);
        TargetError error = errorOf(answer);
        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_AUTH);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_RECONNECT);
        assertThat(error.message())
                .isEqualTo("Facebook refused the post: the account's access token expired. Meta said: \"Error"
                        + " validating access token: Session has expired.\" (code 190/463, HTTP 400).");
    }

    @Test
    void aMissingPermissionAsksForReconnectAndIsNotRetried() {
        for (int code : new int[] {10, 200, 299}) {
            PlatformAnswer answer =
                    GraphErrors.answer(403, error(code, null, "permission"), "Facebook refused the post");

            assertThat(answer).as("code %d", code).isInstanceOf(PlatformAnswer.Refused.class);
            assertThat(errorOf(answer).action()).isEqualTo(TargetError.ACTION_RECONNECT);
            assertThat(errorOf(answer).retryable()).isFalse();
        }
    }

    @Test
    void rateLimitsAreRetriedLater() {
        for (int code : new int[] {4, 17, 32, 613, 80002}) {
            TargetError error =
                    errorOf(GraphErrors.answer(400, error(code, null, "limit"), "Facebook refused the post"));

            assertThat(error.category()).as("code %d", code).isEqualTo(TargetError.CATEGORY_RATE_LIMIT);
            assertThat(error.action()).isEqualTo(TargetError.ACTION_RETRY_LATER);
            assertThat(error.retryable()).isTrue();
        }
    }

    @Test
    void anInvalidParameterAsksToEditThePost() {
        TargetError error =
                errorOf(GraphErrors.answer(400, error(100, null, "Invalid parameter"), "Facebook refused the post"));

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_CONTENT);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_EDIT_CONTENT);
        assertThat(error.retryable()).isFalse();
    }

    @Test
    void instagramMediaErrorsAskForOtherMedia() {
        for (int[] codes : new int[][] {{352, 2207026}, {9004, 2207052}, {36000, 2207004}, {9004, 0}}) {
            TargetError error = errorOf(GraphErrors.answer(
                    400, error(codes[0], codes[1] == 0 ? null : codes[1], "media"), "Instagram refused the video"));

            assertThat(error.category()).as("%d/%d", codes[0], codes[1]).isEqualTo(TargetError.CATEGORY_MEDIA);
            assertThat(error.action()).isEqualTo(TargetError.ACTION_REPLACE_MEDIA);
            assertThat(error.retryable()).isFalse();
        }
    }

    @Test
    void aContainerThatFailedIsFiledByTheSubcodeItsStatusQuotes() {
        TargetError unsupported = GraphErrors.containerFailed(
                "ERROR",
                "Error: 2207026 The video format is not supported.",
                "Instagram could not process the video",
                Map.of());
        TargetError expired =
                GraphErrors.containerFailed("EXPIRED", null, "Instagram could not process the video", Map.of());

        assertThat(unsupported.action()).isEqualTo(TargetError.ACTION_REPLACE_MEDIA);
        assertThat(unsupported.retryable()).isFalse();
        assertThat(unsupported.message())
                .contains("ERROR, subcode 2207026")
                .contains("The video format is not supported.");
        assertThat(expired.retryable()).isTrue();
        assertThat(expired.action()).isEqualTo(TargetError.ACTION_RETRY_LATER);
    }

    @Test
    void aServerErrorMayHavePublished() {
        PlatformAnswer answer = GraphErrors.answer(500, error(100, null, "oops"), "Facebook refused the post");

        assertThat(answer).isInstanceOf(PlatformAnswer.Unknown.class);
        assertThat(errorOf(answer).retryable()).isTrue();
        assertThat(errorOf(answer).category()).isEqualTo(TargetError.CATEGORY_PLATFORM);
    }

    @Test
    void theReferenceListsEveryRow() {
        ErrorTables.assertListed("Facebook and Instagram (Meta Graph API)", GraphErrors.TABLE);
    }

    private static JsonNode error(int code, Integer subcode, String message) {
        ObjectNode error = MAPPER.createObjectNode().put("code", code).put("message", message);
        if (subcode != null) {
            error.put("error_subcode", subcode);
        }
        return MAPPER.createObjectNode().set("error", error);
    }
}
