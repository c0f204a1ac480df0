package dev.herald.posts.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.wire.PostTarget.FirstCommentStatus;
import dev.herald.common.wire.TargetError;
import dev.herald.posts.provider.ScopeNotGranted;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * What a failed try at posting a live first comment leads to, decided without I/O: a refusal is {@code failed} at
 * once; a temporary failure (no answer, a platform's 5xx or rate limit, a Herald service that could not answer) is
 * tried again after a backoff (the {@code n}-th wait {@code first * 2^(n-1)}, at most {@code max}, never sooner than
 * the platform's Retry-After), unless that try would come after the deadline: then {@code failed} with what went wrong
 * last, retryable.
 *
 * <p>Refusals: the allowance used up ({@code usage_limit_exceeded}); the account disconnected or its grant refused
 * ({@code account_disconnected}, {@code provider_error} filed under {@code auth}/{@code reconnect}); any other 4xx of the
 * platform ({@code provider_error}, with the platform's words: {@code content}/{@code edit_content} for 400, 413 and
 * 422, else {@code platform}/{@code contact_support}).
 */
public record FirstCommentRetry(Instant retryAt, FirstCommentStatus settled) {

    public boolean retries() {
        return retryAt != null;
    }

    /**
     * After try number {@code attempts} (from 1) failed with {@code failure} at {@code now}, given the first comment's
     * {@code deadline}.
     */
    public static FirstCommentRetry after(
            Throwable failure, int attempts, Instant now, Instant deadline, Duration first, Duration max) {
        TargetError refusal = refusal(failure);
        if (refusal != null) {
            return new FirstCommentRetry(null, FirstComments.failed(refusal));
        }
        Duration wait = atLeast(backoff(first, max, attempts), retryAfter(failure));
        Instant next = now.plus(wait);
        if (next.isAfter(deadline)) {
            return new FirstCommentRetry(null, FirstComments.failed(gaveUp(failure, attempts)));
        }
        return new FirstCommentRetry(next, null);
    }

    /** The error of a failure no later try can mend; null when the failure is temporary. */
    static TargetError refusal(Throwable failure) {
        if (!(failure instanceof ApiException api)) {
            return null;
        }
        Map<String, Object> details = api.details();
        return switch (api.code()) {
            case USAGE_LIMIT_EXCEEDED -> new TargetError(api.code().code(), api.getMessage(), false, details);
            case CONFLICT -> new TargetError(TargetError.ACCOUNT_DISCONNECTED, api.getMessage(), false, details);
            case PROVIDER_ERROR -> providerRefusal(api);
            case INTERNAL_ERROR, SERVICE_UNAVAILABLE -> null;
            default ->
                api.code().httpStatus() < 500
                        ? new TargetError(api.code().code(), api.getMessage(), false, details)
                        : null;
        };
    }

    private static TargetError providerRefusal(ApiException api) {
        TargetError error = new TargetError(TargetError.PROVIDER_ERROR, api.getMessage(), false, api.details());
        if (api instanceof ScopeNotGranted) {
            return error.as(TargetError.CATEGORY_AUTH, TargetError.ACTION_RECONNECT);
        }
        if (!(api.details().get("provider_status") instanceof Integer status) || status >= 500 || status == 429) {
            return null;
        }
        if (status == 401) {
            // The renewed token refused as well (PlatformFailures.refusedAgain): only reconnecting helps.
            return error.as(TargetError.CATEGORY_AUTH, TargetError.ACTION_RECONNECT);
        }
        if (status == 400 || status == 413 || status == 422) {
            return error.as(TargetError.CATEGORY_CONTENT, TargetError.ACTION_EDIT_CONTENT);
        }
        return error.as(TargetError.CATEGORY_PLATFORM, TargetError.ACTION_CONTACT_SUPPORT);
    }

    /** The last temporary failure, once the deadline leaves no room for another try. */
    private static TargetError gaveUp(Throwable failure, int attempts) {
        String said = failure instanceof ApiException api ? api.getMessage() : "the platform did not answer";
        String message = "Herald tried " + attempts + (attempts == 1 ? " time" : " times")
                + " before the first comment's deadline and gave up: " + said;
        if (failure instanceof ApiException api && api.code() == ErrorCode.SERVICE_UNAVAILABLE) {
            return new TargetError(TargetError.PROVIDER_ERROR, message, true, api.details())
                    .as(TargetError.CATEGORY_RATE_LIMIT, TargetError.ACTION_RETRY_LATER);
        }
        if (failure instanceof ApiException api && api.details().containsKey("provider_status")) {
            return new TargetError(TargetError.PROVIDER_ERROR, message, true, api.details())
                    .as(TargetError.CATEGORY_PLATFORM, TargetError.ACTION_RETRY_LATER);
        }
        Map<String, Object> details = failure instanceof ApiException api ? api.details() : Map.of();
        return new TargetError(TargetError.PROVIDER_ERROR, message, true, details)
                .as(TargetError.CATEGORY_NETWORK, TargetError.ACTION_RETRY_LATER);
    }

    /** The {@code n}-th wait (n from 1): {@code first} doubling, at most {@code max}. */
    static Duration backoff(Duration first, Duration max, int n) {
        int doublings = Math.min(Math.max(n - 1, 0), 30);
        Duration wait = first.multipliedBy(1L << doublings);
        return wait.compareTo(max) > 0 ? max : wait;
    }

    private static Duration atLeast(Duration wait, Duration asked) {
        return asked != null && asked.compareTo(wait) > 0 ? asked : wait;
    }

    /** The platform's Retry-After, as {@code PlatformFailures} hands it on; null when it gave none. */
    private static Duration retryAfter(Throwable failure) {
        if (failure instanceof ApiException api && api.headers().get("Retry-After") != null) {
            try {
                return Duration.ofSeconds(Long.parseLong(api.headers().get("Retry-After")));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }
}
