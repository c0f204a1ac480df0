package dev.herald.delivery.provider.tiktok;

import static dev.herald.delivery.provider.PublicationSteps.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.support.ErrorTables;
import org.junit.jupiter.api.Test;

class TikTokErrorsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void aRevokedTikTokTokenAsksForReconnect() {
        PlatformAnswer answer = TikTokErrors.answer(
                401,
                error("access_token_invalid", "The access token is invalid or not found in the request."),
                null,
                "TikTok refused to start the post");

        assertThat(answer).isInstanceOf(PlatformAnswer.TokenRefused.class);
        TargetError error = errorOf(answer);
        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_AUTH);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_RECONNECT);
        assertThat(error.retryable()).isFalse();
    }

    @Test
    void aPrivacyLevelTheAccountDoesNotOfferAsksToEditThePostInPlainWords() {
        TargetError error = errorOf(TikTokErrors.answer(
                400,
                error(
                        "privacy_level_option_mismatch",
                        "privacy_level PUBLIC_TO_EVERYONE is not allowed for this creator"),
                null,
                "TikTok refused to start the post"));

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_CONTENT);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_EDIT_CONTENT);
        assertThat(error.retryable()).isFalse();
        assertThat(error.message())
                .isEqualTo(
                        "TikTok refused to start the post: the account's privacy settings do not allow the post's"
                                + " privacy_level; choose one of the account's publishing options. TikTok said: \"privacy_level"
                                + " PUBLIC_TO_EVERYONE is not allowed for this creator\" (privacy_level_option_mismatch, HTTP 400).");
    }

    @Test
    void aMissingScopeAsksForReconnectWithoutAnotherAttempt() {
        for (String code : new String[] {"scope_not_authorized", "scope_permission_missed"}) {
            PlatformAnswer answer =
                    TikTokErrors.answer(401, error(code, "scope"), null, "TikTok refused to start the post");

            assertThat(answer).as(code).isInstanceOf(PlatformAnswer.Refused.class);
            assertThat(errorOf(answer).action()).isEqualTo(TargetError.ACTION_RECONNECT);
            assertThat(errorOf(answer).retryable()).isFalse();
        }
    }

    @Test
    void theDailyPostCapIsFinalAndSaysToPostAgainLater() {
        TargetError error = errorOf(TikTokErrors.answer(
                403, error("spam_risk_too_many_posts", "too many posts"), 60, "TikTok refused to start the post"));

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_RATE_LIMIT);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_RETRY_LATER);
        assertThat(error.retryable()).isFalse();
        assertThat(error.details())
                .containsEntry("reason", "creator_cannot_post")
                .doesNotContainKey("retry_after_seconds");
    }

    @Test
    void aRateLimitIsRetriedAfterWhatTikTokSays() {
        TargetError error = errorOf(TikTokErrors.answer(
                429, error("rate_limit_exceeded", "slow down"), 30, "TikTok refused to start the post"));

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_RATE_LIMIT);
        assertThat(error.retryable()).isTrue();
        assertThat(error.details()).containsEntry("retry_after_seconds", 30);
    }

    @Test
    void aFileTikTokChecksRefuseAsksForOtherMedia() {
        for (String reason : new String[] {
            "file_format_check_failed", "duration_check_failed", "frame_rate_check_failed", "picture_size_check_failed"
        }) {
            TargetError error = TikTokErrors.failed(reason, "p-1");

            assertThat(error.category()).as(reason).isEqualTo(TargetError.CATEGORY_MEDIA);
            assertThat(error.action()).as(reason).isEqualTo(TargetError.ACTION_REPLACE_MEDIA);
            assertThat(error.retryable()).as(reason).isFalse();
            assertThat(error.message())
                    .startsWith("TikTok did not publish the video: ")
                    .endsWith("(" + reason + ").");
        }
    }

    @Test
    void aFailedPullAndTikTokInternalFailuresAreRetried() {
        assertThat(TikTokErrors.failed("video_pull_failed", "p-1").retryable()).isTrue();
        assertThat(TikTokErrors.failed("internal", "p-1").retryable()).isTrue();
        assertThat(TikTokErrors.failed("something_new", "p-1").action()).isEqualTo(TargetError.ACTION_CONTACT_SUPPORT);
    }

    @Test
    void anUploadUrlsBareRefusalIsFiledByItsStatus() {
        TargetError error =
                errorOf(TikTokErrors.answer(503, MAPPER.createObjectNode(), null, "TikTok refused bytes 0-9"));

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_PLATFORM);
        assertThat(error.retryable()).isTrue();
        assertThat(error.message())
                .isEqualTo("TikTok refused bytes 0-9: the platform failed to answer the request (HTTP 503).");
    }

    @Test
    void theReferenceListsEveryRow() {
        ErrorTables.assertListed("TikTok", TikTokErrors.TABLE);
    }

    private static JsonNode error(String code, String message) {
        return MAPPER.createObjectNode()
                .set(
                        "error",
                        MAPPER.createObjectNode()
                                .put("code", code)
                                .put("message", message)
                                .put("log_id", "log-1"));
    }
}
