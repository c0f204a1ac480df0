package dev.herald.posts.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.wire.TargetError;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class FirstCommentRetryTest {
    private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");
    private static final Instant DEADLINE = NOW.plus(Duration.ofMinutes(10));
    private static final Duration FIRST = Duration.ofSeconds(5);
    private static final Duration MAX = Duration.ofMinutes(2);

    private static ApiException platform(int status, String message) {
        return new ApiException(
                ErrorCode.PROVIDER_ERROR,
                "Facebook answered HTTP " + status + ": " + message,
                Map.of("account_id", "acc_1", "platform", "facebook", "provider_status", status));
    }

    private static FirstCommentRetry after(Throwable failure, int attempts, Instant deadline) {
        return FirstCommentRetry.after(failure, attempts, NOW, deadline, FIRST, MAX);
    }

    @Test
    void aPlatformsServerErrorOrNoAnswerIsTriedAgainAfterADoublingWait() {
        assertThat(after(platform(500, "oops"), 1, DEADLINE).retryAt()).isEqualTo(NOW.plusSeconds(5));
        assertThat(after(platform(503, "oops"), 3, DEADLINE).retryAt()).isEqualTo(NOW.plusSeconds(20));
        assertThat(after(new TimeoutException(), 2, DEADLINE).retryAt()).isEqualTo(NOW.plusSeconds(10));
        // Capped at the longest wait.
        assertThat(after(new TimeoutException(), 12, DEADLINE).retryAt()).isEqualTo(NOW.plus(MAX));
    }

    @Test
    void thePlatformsRateLimitWaitsAtLeastItsRetryAfter() {
        ApiException limited = new ApiException(
                ErrorCode.SERVICE_UNAVAILABLE,
                "Facebook is limiting Herald's calls",
                Map.of(),
                Map.of("Retry-After", "90"));
        assertThat(after(limited, 1, DEADLINE).retryAt()).isEqualTo(NOW.plusSeconds(90));
    }

    @Test
    void aTryThatWouldComeAfterTheDeadlineFailsRetryableWithWhatWentWrongLast() {
        FirstCommentRetry next = after(platform(500, "oops"), 4, NOW.plusSeconds(30));

        assertThat(next.retries()).isFalse();
        TargetError error = next.settled().error();
        assertThat(next.settled().status()).isEqualTo("failed");
        assertThat(error.retryable()).isTrue();
        assertThat(error.message())
                .isEqualTo("Herald tried 4 times before the first comment's deadline and gave up:"
                        + " Facebook answered HTTP 500: oops");
        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_PLATFORM);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_RETRY_LATER);
        assertThat(after(new TimeoutException(), 1, NOW).settled().error().category())
                .isEqualTo(TargetError.CATEGORY_NETWORK);
    }

    @Test
    void aRefusalFailsAtOnceFiledByWhatTheCustomerCanDo() {
        TargetError content = after(platform(400, "(#368) deemed abusive"), 1, DEADLINE)
                .settled()
                .error();
        assertThat(content.code()).isEqualTo("provider_error");
        assertThat(content.retryable()).isFalse();
        assertThat(content.message()).contains("deemed abusive");
        assertThat(content.category()).isEqualTo(TargetError.CATEGORY_CONTENT);
        assertThat(content.action()).isEqualTo(TargetError.ACTION_EDIT_CONTENT);

        TargetError missing =
                after(platform(404, "no such post"), 1, DEADLINE).settled().error();
        assertThat(missing.category()).isEqualTo(TargetError.CATEGORY_PLATFORM);
        assertThat(missing.action()).isEqualTo(TargetError.ACTION_CONTACT_SUPPORT);

        TargetError token = after(platform(401, "refused the renewed token"), 1, DEADLINE)
                .settled()
                .error();
        assertThat(token.category()).isEqualTo(TargetError.CATEGORY_AUTH);
        assertThat(token.action()).isEqualTo(TargetError.ACTION_RECONNECT);
    }

    @Test
    void aUsedUpAllowanceOrADisconnectedAccountFailsAtOnce() {
        TargetError limit = after(
                        new ApiException(ErrorCode.USAGE_LIMIT_EXCEEDED, "Comment requests used up", Map.of()),
                        1,
                        DEADLINE)
                .settled()
                .error();
        assertThat(limit.code()).isEqualTo("usage_limit_exceeded");
        assertThat(limit.category()).isEqualTo(TargetError.CATEGORY_RATE_LIMIT);

        TargetError disconnected = after(new ApiException(ErrorCode.CONFLICT, "revoked", Map.of()), 1, DEADLINE)
                .settled()
                .error();
        assertThat(disconnected.code()).isEqualTo(TargetError.ACCOUNT_DISCONNECTED);
        assertThat(disconnected.action()).isEqualTo(TargetError.ACTION_RECONNECT);
    }
}
