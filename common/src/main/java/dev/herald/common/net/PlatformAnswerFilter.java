package dev.herald.common.net;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.client.ClientResponseContext;
import jakarta.ws.rs.client.ClientResponseFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.resteasy.reactive.client.impl.ClientImpl;

/**
 * What every REST client to a platform registers ({@code @RegisterProvider}, or {@code register} on a built client):
 * the size cap on its answers ({@link PlatformAnswerLimit}, installed on the client's Vert.x client before its first
 * request), and a check of each successful answer: one over the cap, one that is not JSON, or JSON that is not an
 * object or an array (a bare string, a number) fails the call with {@link PlatformAnswerUnreadable} instead of reaching
 * a publisher as an empty answer. An empty body passes (some platforms answer 201 with the id in a header). Refusals
 * (4xx, 5xx) pass as they are: they are judged by their status, and an HTML error page is common there.
 * <p>
 * Not a CDI {@code @Provider}: internal clients must not get it. The cap is {@value PlatformAnswerLimit#MAX_BYTES_KEY}.
 */
public final class PlatformAnswerFilter implements ClientRequestFilter, ClientResponseFilter {
    // The answers are small by the cap; depth is bounded as for requests (StorableJsonBodyInterceptor).
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();

    static {
        JSON.getFactory()
                .setStreamReadConstraints(
                        StreamReadConstraints.builder().maxNestingDepth(200).build());
    }

    private final long maxBytes;

    public PlatformAnswerFilter() {
        this(ConfigProvider.getConfig()
                .getOptionalValue(PlatformAnswerLimit.MAX_BYTES_KEY, Long.class)
                .orElse(PlatformAnswerLimit.DEFAULT_MAX_BYTES));
    }

    public PlatformAnswerFilter(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public void filter(ClientRequestContext request) {
        if (request.getClient() instanceof ClientImpl client) {
            PlatformAnswerLimit.install(client.getVertxHttpClient(), maxBytes);
        }
    }

    @Override
    public void filter(ClientRequestContext request, ClientResponseContext response) throws IOException {
        int status = response.getStatus();
        if (status / 100 != 2) {
            return;
        }
        if (response.getHeaderString(PlatformAnswerLimit.TOO_LARGE_HEADER) != null) {
            throw PlatformAnswerUnreadable.tooLarge(status, maxBytes);
        }
        if (!response.hasEntity()) {
            return;
        }
        byte[] body;
        try (InputStream in = response.getEntityStream()) {
            body = in.readAllBytes();
        }
        response.setEntityStream(new ByteArrayInputStream(body));
        check(status, body, response.getHeaderString("Content-Type"));
    }

    /** Throws {@link PlatformAnswerUnreadable} unless {@code body} is empty or a JSON object or array. */
    static void check(int status, byte[] body, String contentType) {
        if (isBlank(body)) {
            return;
        }
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (IOException | RuntimeException e) {
            throw new PlatformAnswerUnreadable(
                    PlatformAnswerUnreadable.NOT_JSON,
                    "its answer was not JSON",
                    status,
                    Map.of("content_type", printable(contentType)));
        }
        if (json == null || !(json.isObject() || json.isArray())) {
            throw new PlatformAnswerUnreadable(
                    PlatformAnswerUnreadable.NOT_AN_OBJECT,
                    "its answer was JSON "
                            + (json == null
                                    ? "of nothing"
                                    : json.getNodeType().name().toLowerCase()) + " where an object was expected",
                    status,
                    Map.of());
        }
    }

    /** A header of the platform's as a detail: printable ASCII, at most 100 characters. */
    private static String printable(String value) {
        if (value == null) {
            return "none";
        }
        String kept = value.strip().replaceAll("[^\\x20-\\x7e]", "?");
        return kept.length() > 100 ? kept.substring(0, 100) : kept;
    }

    private static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }
}
