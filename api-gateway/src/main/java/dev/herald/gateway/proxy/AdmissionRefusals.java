package dev.herald.gateway.proxy;

import static dev.herald.gateway.proxy.RouteRefusals.CHALLENGE;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.UsageLimitExceeded;
import dev.herald.gateway.config.UsageConfig;
import dev.herald.gateway.service.Admission;
import dev.herald.gateway.service.Credential;
import dev.herald.gateway.service.RateLimitStatus;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Map;

/**
 * The refusals of a request for who sent it and how much they sent: no valid credential ({@code 401}), two
 * credentials ({@code 400}), the minute's rate window full ({@code 429 rate_limit_exceeded}) or the month's
 * allowance spent ({@code 429 usage_limit_exceeded}). Each carries its headers; the rate-limit headers are set
 * apart ({@link RateLimitHeaders}).
 */
@ApplicationScoped
class AdmissionRefusals {
    private final UsageConfig usage;
    private final Clock clock;

    AdmissionRefusals(UsageConfig usage, Clock clock) {
        this.usage = usage;
        this.clock = clock;
    }

    /** RFC 6750 section 3: a challenge on every 401, naming the failure when a token was presented. */
    ApiException authenticationFailed(boolean tokenPresented) {
        return new ApiException(
                ErrorCode.AUTHENTICATION_FAILED,
                "No valid credential was provided. Send Authorization: Bearer <your API key or access token>.",
                Map.of(),
                Map.of("WWW-Authenticate", tokenPresented ? CHALLENGE + ", error=\"invalid_token\"" : CHALLENGE));
    }

    /**
     * Two Authorization headers: which one a cache or proxy in front honoured is unknowable, so neither is
     * (RFC 6750 section 3.1 answers a request that presents a token more than once with invalid_request).
     */
    ApiException ambiguousCredentials() {
        return new ApiException(ErrorCode.INVALID_REQUEST, "Send one Authorization header, not several.");
    }

    ApiException rateLimited(RateLimitStatus rate) {
        long retryAfter = Math.max(1, rate.resetEpochSeconds() - clock.instant().getEpochSecond());
        return new ApiException(
                ErrorCode.RATE_LIMIT_EXCEEDED,
                "Too many requests this minute. Retry after " + retryAfter + " s.",
                Map.of("retry_after_seconds", retryAfter, "limit", rate.limit()),
                Map.of("Retry-After", Long.toString(retryAfter)));
    }

    ApiException allowanceSpent(Credential key, Admission verdict) {
        var plan = verdict.entitlements();
        var resetAt = plan.period().end();
        // At least a second: a 429 that says "retry after 0 s" invites the retry it refuses.
        long retryAfter = Math.max(1, UsageLimitExceeded.secondsUntil(clock.instant(), resetAt));
        return new UsageLimitExceeded(
                        "api_requests",
                        key.mode(),
                        plan.plan(),
                        plan.apiRequestsLimit(),
                        verdict.meteredUsed(),
                        0,
                        resetAt,
                        usage.upgradeUrl(),
                        retryAfter)
                .toException("This month's API request allowance is used up; it resets at " + resetAt + ".");
    }
}
