package dev.herald.system;

import static dev.herald.system.RunningSuite.fakes;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a provider fake received, read through its control API ({@code /_fakes/<platform>/requests}). */
final class FakeRequests {

    private FakeRequests() {}

    static void clear(String platform) {
        fakes().delete("/_fakes/" + platform + "/requests").then().statusCode(204);
    }

    /** Every request the platform received since it was last cleared, oldest first. */
    static List<Map<String, Object>> of(String platform) {
        return fakes().get("/_fakes/" + platform + "/requests")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("data");
    }

    /**
     * The requests with this method and path that this token (the journal's {@code authorization}, {@code Bearer
     * sha256:<16 hex>}) made since {@code since}, oldest first.
     */
    static List<Map<String, Object>> made(
            String platform, String authorization, String method, String path, Instant since) {
        return of(platform).stream()
                .filter(request -> method.equals(request.get("method"))
                        && path.equals(request.get("path"))
                        && List.of(authorization).equals(headers(request).get("authorization"))
                        && !receivedAt(request).isBefore(since))
                .toList();
    }

    /** When the fake received the request. */
    static Instant receivedAt(Map<String, Object> request) {
        return Instant.parse((String) request.get("received_at"));
    }

    /** The request's {@code authorization} header as the journal shows it: {@code Bearer sha256:<16 hex>}. */
    static String authorization(Map<String, Object> request) {
        return headers(request).get("authorization").get(0);
    }

    /** The fields of a form-encoded body ({@code application/x-www-form-urlencoded}), in their order. */
    static Map<String, String> form(String body) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            String[] parts = pair.split("=", 2);
            fields.put(
                    URLDecoder.decode(parts[0], StandardCharsets.UTF_8),
                    parts.length > 1 ? URLDecoder.decode(parts[1], StandardCharsets.UTF_8) : "");
        }
        return fields;
    }

    /** {@code "<method> <path> <status>"}: the request and its answer on one line. */
    static String line(Map<String, Object> request) {
        return request.get("method") + " " + request.get("path") + " " + request.get("status");
    }

    static List<String> lines(List<Map<String, Object>> requests) {
        return requests.stream().map(FakeRequests::line).toList();
    }

    @SuppressWarnings("unchecked")
    static Map<String, List<String>> headers(Map<String, Object> request) {
        return (Map<String, List<String>>) request.get("headers");
    }

    /** How the fakes' journal shows an upload's body: its byte count and SHA-256. */
    static String upload(byte[] bytes) {
        return "<" + bytes.length + " bytes, sha256 " + sha256(bytes) + ">";
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
