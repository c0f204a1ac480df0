package dev.herald.system.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One generated request: {@code variant} is {@code valid} (well-formed by the document) or the name of the single
 * mutation that made it invalid, such as {@code body.missing_required:text}.
 *
 * @param headers every header to send, in order (a name may repeat: a repeated Idempotency-Key is a mutation)
 * @param body    the raw body, or null for none
 */
public record FuzzRequest(
        String method,
        String path,
        Map<String, String> query,
        List<Map.Entry<String, String>> headers,
        byte[] body,
        String variant) {

    public boolean valid() {
        return "valid".equals(variant);
    }

    public String pathAndQuery() {
        if (query.isEmpty()) {
            return path;
        }
        return path + "?"
                + query.entrySet().stream()
                        .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                        .collect(Collectors.joining("&"));
    }

    private static String encode(String text) {
        return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The request as a replayable line (headers without the credential's secret, body abbreviated). */
    public String describe() {
        String shownHeaders = headers.stream()
                .filter(h -> !h.getKey().equalsIgnoreCase("Authorization"))
                .map(h -> h.getKey() + ": " + OpenApiContract.abbreviate(h.getValue()))
                .collect(Collectors.joining(", "));
        String shownBody =
                body == null ? "" : " " + OpenApiContract.abbreviate(new String(body, StandardCharsets.UTF_8));
        return "[" + variant + "] " + method + " " + OpenApiContract.abbreviate(pathAndQuery())
                + (shownHeaders.isEmpty() ? "" : " {" + shownHeaders + "}") + shownBody;
    }
}
