package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.net.PlatformAnswerUnreadable;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * How a platform call's answer (comments, post analytics) reaches Herald's caller: a 2xx is read; a refused token is
 * {@link TokenRefused}; a grant without the scope the call needs is {@link ScopeNotGranted}; the platform's own rate limit is {@code 503 service_unavailable} with its Retry-After (it is
 * not the customer's allowance, so never {@code 429}; the envelope's 503 carries no details, so the message names the
 * platform and the wait); anything else the platform answered, and no answer at all, is {@code 502 provider_error}
 * with {@code account_id}, {@code platform}, {@code provider_status} and {@code provider_code}.
 */
public final class PlatformFailures {
    static final long DEFAULT_RETRY_AFTER_SECONDS = 60;

    /** What a platform's error answer means. */
    public enum Kind {
        TOKEN_REFUSED,
        SCOPE_NOT_GRANTED,
        RATE_LIMITED,
        FAILED
    }

    /** A platform's error answer, read by its provider: what it means, the platform's code and message. */
    public record PlatformError(Kind kind, String providerCode, String message) {}

    private PlatformFailures() {}

    /** The body of a 2xx answer (an empty object when there is none); otherwise the failure it stands for. */
    static JsonNode body(
            Platform platform,
            ActingAccount account,
            Response response,
            ObjectMapper mapper,
            BiFunction<Integer, JsonNode, PlatformError> errors) {
        int status = response.getStatus();
        JsonNode body;
        try {
            String text = response.hasEntity() ? response.readEntity(String.class) : "";
            body = text == null || text.isBlank() ? mapper.createObjectNode() : mapper.readTree(text);
        } catch (Exception e) {
            body = mapper.createObjectNode();
            if (status / 100 == 2) {
                throw failed(platform, account, status, null, "answered something Herald cannot read");
            }
        }
        if (status / 100 == 2) {
            return body;
        }
        PlatformError error = errors.apply(status, body);
        if (error.kind() == Kind.TOKEN_REFUSED) {
            throw new TokenRefused(account.access().accessToken());
        }
        if (error.kind() == Kind.SCOPE_NOT_GRANTED) {
            throw new ScopeNotGranted(platform, account, error.providerCode());
        }
        if (error.kind() == Kind.RATE_LIMITED) {
            long seconds = retryAfterSeconds(response.getHeaderString("Retry-After"));
            return throwing(new ApiException(
                    ErrorCode.SERVICE_UNAVAILABLE,
                    platform.displayName()
                            + " is limiting Herald's calls for this account ("
                            + (error.providerCode() == null ? "HTTP " + status : error.providerCode())
                            + "); try again in " + seconds + " seconds.",
                    Map.of(),
                    Map.of("Retry-After", Long.toString(seconds))));
        }
        throw failed(platform, account, status, error.providerCode(), error.message());
    }

    /** No answer (a timeout, a refused or broken connection); the cause stays in the log. */
    static <T> Uni<T> unreachable(Platform platform, ActingAccount account, Throwable failure) {
        if (failure instanceof ApiException || failure instanceof TokenRefused) {
            return Uni.createFrom().failure(failure);
        }
        PlatformAnswerUnreadable unreadable = PlatformAnswerUnreadable.in(failure);
        if (unreadable != null) {
            // It answered, over the size cap or not as JSON (API10): said precisely, the body never echoed.
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("account_id", account.access().accountId());
            details.put("platform", platform.wireName());
            details.putAll(unreadable.details());
            return Uni.createFrom()
                    .failure(new ApiException(
                            ErrorCode.PROVIDER_ERROR,
                            platform.displayName() + " answered, but " + unreadable.description() + ".",
                            details));
        }
        org.jboss.logging.Logger.getLogger(PlatformFailures.class)
                .warnf("%s: no answer (%s)", platform.wireName(), failure.toString());
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("account_id", account.access().accountId());
        details.put("platform", platform.wireName());
        return Uni.createFrom()
                .failure(new ApiException(
                        ErrorCode.PROVIDER_ERROR,
                        platform.displayName() + " did not answer; try again shortly.",
                        details));
    }

    /** The platform refused the token accounts-service had just renewed: nothing more Herald can do now. */
    public static ApiException refusedAgain(Platform platform, ActingAccount account) {
        return new ApiException(
                ErrorCode.PROVIDER_ERROR,
                platform.displayName()
                        + " refused the account's renewed access token; reconnect the account if this persists.",
                details(platform, account, 401, null));
    }

    private static ApiException failed(
            Platform platform, ActingAccount account, int status, String providerCode, String message) {
        String text = message == null || message.isBlank()
                ? platform.displayName() + " answered HTTP " + status + "."
                : platform.displayName() + " answered HTTP " + status + ": " + message;
        return new ApiException(ErrorCode.PROVIDER_ERROR, text, details(platform, account, status, providerCode));
    }

    private static Map<String, Object> details(
            Platform platform, ActingAccount account, int status, String providerCode) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("account_id", account.access().accountId());
        details.put("platform", platform.wireName());
        details.put("provider_status", status);
        if (providerCode != null && !providerCode.isBlank()) {
            details.put("provider_code", providerCode);
        }
        return details;
    }

    /** Seconds or an HTTP date (RFC 9110); at least 1, {@value #DEFAULT_RETRY_AFTER_SECONDS} when absent. */
    static long retryAfterSeconds(String header) {
        if (header == null || header.isBlank()) {
            return DEFAULT_RETRY_AFTER_SECONDS;
        }
        try {
            return Math.max(1, Long.parseLong(header.trim()));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME)
                        .toInstant();
                return Math.max(1, Duration.between(Instant.now(), at).toSeconds());
            } catch (DateTimeParseException notADate) {
                return DEFAULT_RETRY_AFTER_SECONDS;
            }
        }
    }

    private static JsonNode throwing(ApiException exception) {
        throw exception;
    }
}
