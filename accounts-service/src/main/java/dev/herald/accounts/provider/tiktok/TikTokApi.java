package dev.herald.accounts.provider.tiktok;

import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.http.ProviderErrors;
import dev.herald.accounts.provider.http.ProviderResponse;
import dev.herald.common.wire.Platform;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * TikTok API v2's envelope: {@code {"data": {...}, "error": {"code", "message", "log_id"}}} with code {@code ok}
 * on success. Error codes per https://developers.tiktok.com/doc/tiktok-api-v2-error-handling/.
 */
final class TikTokApi {
    /** The user must authorize again: the token is dead or lacks a scope the call needs. */
    private static final Set<String> REVOKED = Set.of("access_token_invalid", "scope_not_authorized");

    private static final Set<String> RETRYABLE = Set.of("rate_limit_exceeded", "internal_error");

    private TikTokApi() {}

    /** TikTok's {@code scope_not_authorized}: the grant lacks the scope the call needs. */
    static boolean scopeNotAuthorized(ProviderResponse response) {
        JsonObject body = response.json();
        return body.getValue("error") instanceof JsonObject error
                && "scope_not_authorized".equals(error.getString("code"));
    }

    static JsonObject data(ProviderResponse response) {
        JsonObject body = response.json();
        JsonObject error = body.getValue("error") instanceof JsonObject object ? object : null;
        String code = error == null ? null : error.getString("code");
        if (response.ok() && (code == null || "ok".equals(code))) {
            return body.getValue("data") instanceof JsonObject data ? data : new JsonObject();
        }
        throw failure(response, code, error == null ? null : error.getString("message"));
    }

    private static ProviderException failure(ProviderResponse response, String code, String message) {
        if (code == null || "ok".equals(code)) {
            return ProviderErrors.api(Platform.TIKTOK, response, null, message);
        }
        boolean retryable = RETRYABLE.contains(code) || ProviderErrors.retryableStatus(response.status());
        boolean revoked = REVOKED.contains(code) || response.status() == 401;
        return ProviderErrors.exception(
                Platform.TIKTOK, code, message, response.status(), revoked && !retryable, retryable);
    }
}
