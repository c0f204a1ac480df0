package dev.herald.system;

import static dev.herald.system.RunningSuite.fakes;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** What a provider fake received, read through its control API ({@code /_fakes/<platform>/requests}). */
final class FakeRequests {

    private FakeRequests() {
    }

    static void clear(String platform) {
        fakes().delete("/_fakes/" + platform + "/requests").then().statusCode(204);
    }

    /** Every request the platform received since it was last cleared, oldest first. */
    static List<Map<String, Object>> of(String platform) {
        return fakes().get("/_fakes/" + platform + "/requests").then().statusCode(200).extract().jsonPath().getList("data");
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
