package dev.herald.accounts.provider.http;

import dev.herald.accounts.provider.ProviderException;
import dev.herald.common.wire.Platform;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * Maps provider refusals to {@link ProviderException}: {@code revoked} when the user's grant is gone (the account
 * needs reconnecting), {@code retryable} when a later attempt may succeed. Messages carry the provider's error
 * code and description, never a request or a token.
 */
public final class ProviderErrors {
    private static final Set<String> RETRYABLE_OAUTH_ERRORS = Set.of("temporarily_unavailable", "server_error");
    private static final int MAX_DESCRIPTION = 200;

    private ProviderErrors() {}

    /**
     * An RFC 6749 token endpoint error ({@code {"error", "error_description"}}). {@code invalid_grant} means the
     * code or refresh token is dead; when refreshing, any other client-side refusal but {@code invalid_client}
     * (Herald's own misconfiguration) also means the grant cannot be renewed.
     */
    public static ProviderException oauth(Platform platform, ProviderResponse response, boolean refreshing) {
        JsonObject body = response.json();
        String error = firstText(body, "error", "error_type", "code");
        String description = firstText(body, "error_description", "error_message", "message");
        if (error == null) {
            error = "http_" + response.status();
        }
        boolean retryable = retryableStatus(response.status()) || RETRYABLE_OAUTH_ERRORS.contains(error);
        boolean revoked = !retryable
                && ("invalid_grant".equals(error)
                        || (refreshing
                                && !"invalid_client".equals(error)
                                && response.status() >= 400
                                && response.status() < 500));
        return exception(platform, error, description, response.status(), revoked, retryable);
    }

    /** An API refusal by HTTP status alone: 401 is a dead token; 429 and 5xx are worth retrying. */
    public static ProviderException api(Platform platform, ProviderResponse response, String code, String description) {
        int status = response.status();
        return exception(
                platform,
                code != null ? code : "http_" + status,
                description,
                status,
                status == 401,
                retryableStatus(status));
    }

    public static ProviderException exception(
            Platform platform, String code, String description, int status, boolean revoked, boolean retryable) {
        StringBuilder message = new StringBuilder(platform.wireName()).append(" refused");
        if (status > 0) {
            message.append(" (HTTP ").append(status).append(')');
        }
        message.append(": ").append(code);
        if (description != null && !description.isBlank()) {
            message.append(" - ")
                    .append(
                            description.length() > MAX_DESCRIPTION
                                    ? description.substring(0, MAX_DESCRIPTION) + "..."
                                    : description);
        }
        return new ProviderException(code, message.toString(), revoked, retryable);
    }

    /** A check found a permission Herald needs no longer granted: only a new authorization gives it back. */
    public static ProviderException permissionMissing(Platform platform, String permission) {
        return exception(
                platform,
                "permission_missing",
                "the grant no longer includes " + permission + ", which Herald needs to publish",
                0,
                true,
                false);
    }

    /** A check found the grant no longer reaches the account (deleted, or the user lost their role on it). */
    public static ProviderException identityGone(Platform platform, String externalId) {
        return exception(
                platform, "account_not_found", "the grant no longer reaches account " + externalId, 0, true, false);
    }

    /** A 2xx answer without what the documentation promises. */
    public static ProviderException malformed(Platform platform, String what) {
        return new ProviderException(
                "malformed_response", platform.wireName() + " answered without " + what, false, false);
    }

    /** Whether a body carries an RFC 6749 style {@code error} (some platforms send one with status 200). */
    public static boolean oauthErrorIn(ProviderResponse response) {
        return firstText(response.json(), "error") != null;
    }

    public static boolean retryableStatus(int status) {
        return status == 429 || status >= 500;
    }

    static String firstText(JsonObject body, String... names) {
        for (String name : names) {
            Object value = body.getValue(name);
            if (value instanceof String text && !text.isBlank()) {
                return text;
            }
        }
        return null;
    }
}
