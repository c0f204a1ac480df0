package dev.herald.accounts.provider.facebook;

import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.http.ProviderErrors;
import dev.herald.accounts.provider.http.ProviderResponse;
import dev.herald.common.wire.Platform;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * Meta Graph API errors ({@code {"error": {"message", "type", "code", "error_subcode", "is_transient"}}}), shared by
 * Facebook and Instagram. Codes per https://developers.facebook.com/docs/graph-api/guides/error-handling/:
 * 190 (invalid or expired token) and 102 (session) need a new login, as do permission errors (10, 200-299);
 * 4, 17, 32, 613 and 80001-80014 are rate limits, 1 and 2 temporary failures.
 */
public final class GraphApiErrors {
    private static final Set<Integer> REAUTHORIZE = Set.of(102, 190, 10);
    private static final Set<Integer> RETRYABLE = Set.of(1, 2, 4, 17, 32, 341, 613);

    private GraphApiErrors() {}

    public static ProviderException of(Platform platform, ProviderResponse response) {
        JsonObject body = response.json();
        if (!(body.getValue("error") instanceof JsonObject error)) {
            // The Instagram Login token endpoint answers {"error_type", "code", "error_message"} instead.
            return ProviderErrors.oauth(platform, response, false);
        }
        Integer code = error.getValue("code") instanceof Number number ? number.intValue() : null;
        boolean retryable = ProviderErrors.retryableStatus(response.status())
                || error.getBoolean("is_transient", false)
                || (code != null && (RETRYABLE.contains(code) || (code >= 80001 && code <= 80014)));
        boolean revoked = !retryable && code != null && (REAUTHORIZE.contains(code) || (code >= 200 && code <= 299));
        String name = code == null ? "http_" + response.status() : "graph_" + code;
        return ProviderErrors.exception(
                platform, name, error.getString("message"), response.status(), revoked, retryable);
    }

    /** Whether the answer says the token is already invalid (revoking it again has nothing left to do). */
    public static boolean tokenAlreadyInvalid(ProviderResponse response) {
        return response.json().getValue("error") instanceof JsonObject error
                && error.getValue("code") instanceof Number code
                && code.intValue() == 190;
    }
}
