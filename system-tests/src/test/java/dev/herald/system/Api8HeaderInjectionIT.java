package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * OWASP API8:2023, security misconfiguration: response splitting. Every value a response can echo (the request
 * id, the Idempotency-Key, query parameters and path segments quoted in errors, the OAuth resource, a hosted
 * link's token) is sent with CR/LF, a bare CR, percent-encoded CR/LF and non-ASCII bytes, over a raw socket so no
 * client cleans them first. The answer's head must stay exactly what the gateway meant: no injected header, every
 * line printable ASCII, and the gateway's own request id (a client's X-Request-Id is never echoed).
 */
class Api8HeaderInjectionIT {
    private static final Pattern HEADER_LINE = Pattern.compile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\\x20-\\x7e\\t]*$");
    /** The gateway's own ids: whatever a client sends as X-Request-Id never becomes the answer's request id. */
    private static final Pattern REQUEST_ID = Pattern.compile("^req_[a-f0-9]{24}$");

    private static final String CRLF_INJECTION = "%0d%0aSet-Cookie:%20injected=1%0d%0aX-Injected:%201";

    @Test
    void api8_crLfOrNonAsciiInAnEchoedValueNeverSplitsOrCorruptsAResponseHeader() throws Exception {
        String key = SecuritySupport.scopedTestKey("API8 headers");
        String nonAscii =
                new String("caf\u00e9-\u00ff\u0080".getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.ISO_8859_1);
        Map<String, String> requests = new LinkedHashMap<>();
        requests.put(
                "a request id with non-ASCII bytes",
                RawHttp.head("GET", "/api/v1/profiles", key, "X-Request-Id: req-" + nonAscii));
        requests.put(
                "a request id with percent-encoded CR/LF",
                RawHttp.head("GET", "/api/v1/profiles", key, "X-Request-Id: req" + CRLF_INJECTION));
        requests.put(
                "a request id followed by an injected line",
                RawHttp.head("GET", "/api/v1/profiles", key, "X-Request-Id: req-1\r\nX-Injected: 1"));
        requests.put(
                "a request id with a tab and spaces",
                RawHttp.head("GET", "/api/v1/profiles", key, "X-Request-Id: a\tb c"));
        requests.put(
                "a request id on a refused request",
                RawHttp.head("GET", "/api/v1/profiles", null, "X-Request-Id: r-" + nonAscii));
        String post = "{\"text\":\"x\",\"account_ids\":[\"acc_000000000000000000000000\"]}";
        requests.put(
                "an Idempotency-Key with non-ASCII bytes",
                RawHttp.head(
                                "POST",
                                "/api/v1/posts",
                                key,
                                "Content-Type: application/json",
                                "Content-Length: " + post.length(),
                                "Idempotency-Key: key-" + nonAscii)
                        + "\r\n\r\n" + post);
        requests.put(
                "an Idempotency-Key with percent-encoded CR/LF",
                RawHttp.head(
                                "POST",
                                "/api/v1/posts",
                                key,
                                "Content-Type: application/json",
                                "Content-Length: " + post.length(),
                                "Idempotency-Key: key" + CRLF_INJECTION)
                        + "\r\n\r\n" + post);
        requests.put(
                "a query parameter quoted in an error",
                RawHttp.head("GET", "/api/v1/posts?status=x" + CRLF_INJECTION, key));
        requests.put(
                "a filter value with CR/LF",
                RawHttp.head("GET", "/api/v1/profiles?external_id=x" + CRLF_INJECTION, key));
        requests.put("a limit with CR/LF", RawHttp.head("GET", "/api/v1/profiles?limit=1" + CRLF_INJECTION, key));
        requests.put(
                "a path segment quoted in a 404", RawHttp.head("GET", "/api/v1/profiles/prf_x" + CRLF_INJECTION, key));
        requests.put("an unknown route quoted in a 404", RawHttp.head("GET", "/api/v1/nothing" + CRLF_INJECTION, key));
        requests.put(
                "a method not allowed (the allow header)",
                RawHttp.head("PUT", "/api/v1/profiles" + "?x=" + CRLF_INJECTION, key));
        String form = "grant_type=client_credentials&resource=https://x" + CRLF_INJECTION;
        requests.put(
                "an OAuth resource with CR/LF",
                RawHttp.head(
                                "POST",
                                "/oauth/token",
                                null,
                                "Authorization: Basic "
                                        + java.util.Base64.getEncoder().encodeToString("client:secret".getBytes()),
                                "Content-Type: application/x-www-form-urlencoded",
                                "Content-Length: " + form.length())
                        + "\r\n\r\n" + form);
        requests.put("a hosted link token with CR/LF", RawHttp.head("GET", "/connect/tok" + CRLF_INJECTION, null));

        SoftAssertions softly = new SoftAssertions();
        for (Map.Entry<String, String> request : requests.entrySet()) {
            String text = request.getValue();
            int split = text.indexOf("\r\n\r\n");
            RawHttp.Answer answer = split < 0
                    ? RawHttp.exchange(text, null)
                    : RawHttp.exchange(
                            text.substring(0, split), text.substring(split + 4).getBytes(StandardCharsets.ISO_8859_1));
            String what = request.getKey() + " (answered " + answer.status() + ")";
            // 503 is a dependency's transient answer on a loaded machine; 500 would be this input crashing a handler.
            softly.assertThat(answer.status())
                    .as(what + ": never an internal error")
                    .isNotEqualTo(500);
            softly.assertThat(answer.headerNames())
                    .as(what + ": no injected header")
                    .doesNotContain("set-cookie", "x-injected");
            for (String line : answer.headerLines()) {
                softly.assertThat(line).as(what + ": a well-formed header line").matches(HEADER_LINE);
                softly.assertThat(line.toLowerCase())
                        .as(what + ": nothing injected in a value")
                        .doesNotContain("injected");
            }
            softly.assertThat(answer.header("x-request-id"))
                    .as(what + ": x-request-id")
                    .isNotNull()
                    .matches(REQUEST_ID);
        }

        // A bare CR inside a header is how requests are smuggled past proxies that split lines differently: the
        // gateway's HTTP codec refuses the request outright (400, before any of Herald's code, so without the
        // envelope) instead of reading it either way.
        for (String smuggled : List.of(
                RawHttp.head("GET", "/api/v1/profiles", key, "X-Request-Id: req\rSet-Cookie: injected=1"),
                RawHttp.head("GET", "/api/v1/profiles", key, "Idempotency-Key: key\rX-Injected: 1"))) {
            RawHttp.Answer answer = RawHttp.exchange(smuggled, null);
            softly.assertThat(answer.status()).as("a bare CR in a header").isEqualTo(400);
            softly.assertThat(answer.headerNames())
                    .as("a bare CR in a header")
                    .doesNotContain("set-cookie", "x-injected");
        }
        softly.assertAll();

        // Not even a harmless one: the request id is always the gateway's, so there is nothing to inject into.
        RawHttp.Answer own =
                RawHttp.exchange(RawHttp.head("GET", "/api/v1/profiles", key, "X-Request-Id: trace-42.a_b"), null);
        assertThat(own.status()).isEqualTo(200);
        assertThat(own.header("x-request-id")).matches(REQUEST_ID);
    }
}
