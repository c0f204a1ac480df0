package dev.herald.fakes.model;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a fake platform answers; {@code body} is already serialized (null for none). */
public record FakeResponse(int status, Map<String, String> headers, String contentType, String body) {

    public static FakeResponse json(int status, String json) {
        return new FakeResponse(status, Map.of(), "application/json", json);
    }

    public static FakeResponse empty(int status) {
        return new FakeResponse(status, Map.of(), null, null);
    }

    public static FakeResponse redirect(URI location) {
        return new FakeResponse(302, Map.of("Location", location.toString()), null, null);
    }

    /** Names the size of a generated body ({@link #huge}); the endpoint streams it and never sends this header. */
    public static final String HUGE_BODY_HEADER = "X-Fake-Huge-Body";

    public static final String HUGE_CHUNKED_HEADER = "X-Fake-Huge-Chunked";

    /** A body of {@code bytes} spaces after an opening brace, streamed, declared or chunked. */
    public static FakeResponse huge(int status, long bytes, boolean chunked) {
        return new FakeResponse(
                status,
                Map.of(HUGE_BODY_HEADER, Long.toString(bytes), HUGE_CHUNKED_HEADER, Boolean.toString(chunked)),
                "application/json",
                null);
    }

    public static FakeResponse html(int status, String html) {
        return new FakeResponse(status, Map.of(), "text/html; charset=utf-8", html);
    }

    public FakeResponse withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new FakeResponse(status, Map.copyOf(more), contentType, body);
    }

    public FakeResponse withStatus(int other) {
        return new FakeResponse(other, headers, contentType, body);
    }
}
