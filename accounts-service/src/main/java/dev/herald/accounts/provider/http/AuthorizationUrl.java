package dev.herald.accounts.provider.http;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds a provider's authorization URL: the configured endpoint plus percent-encoded query parameters. */
public final class AuthorizationUrl {
    private final String endpoint;
    private final Map<String, String> parameters = new LinkedHashMap<>();

    private AuthorizationUrl(String endpoint) {
        this.endpoint = endpoint;
    }

    public static AuthorizationUrl at(String endpoint) {
        return new AuthorizationUrl(endpoint);
    }

    /** Adds a parameter; a null value is left out. */
    public AuthorizationUrl with(String name, String value) {
        if (value != null) {
            parameters.put(name, value);
        }
        return this;
    }

    public URI build() {
        StringBuilder url = new StringBuilder(endpoint);
        char separator = endpoint.contains("?") ? '&' : '?';
        for (Map.Entry<String, String> parameter : parameters.entrySet()) {
            url.append(separator).append(encode(parameter.getKey())).append('=').append(encode(parameter.getValue()));
            separator = '&';
        }
        return URI.create(url.toString());
    }

    // %20 rather than '+' for spaces: every provider's scope list decodes it, not all decode '+'.
    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
