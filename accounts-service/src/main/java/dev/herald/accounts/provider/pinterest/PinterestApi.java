package dev.herald.accounts.provider.pinterest;

import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.http.ProviderErrors;
import dev.herald.accounts.provider.http.ProviderResponse;
import dev.herald.common.wire.Platform;
import io.vertx.core.json.JsonObject;

/** Pinterest API v5 errors: {@code {"code": <number>, "message"}} with the HTTP status deciding the kind. */
final class PinterestApi {
    private PinterestApi() {}

    static JsonObject ok(ProviderResponse response) {
        if (!response.ok()) {
            throw failure(response);
        }
        return response.json();
    }

    static ProviderException failure(ProviderResponse response) {
        JsonObject body = response.json();
        Object code = body.getValue("code");
        return ProviderErrors.api(
                Platform.PINTEREST,
                response,
                code == null ? null : "pinterest_" + code,
                body.getValue("message") instanceof String message ? message : null);
    }
}
