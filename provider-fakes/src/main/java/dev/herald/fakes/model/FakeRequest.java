package dev.herald.fakes.model;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One request to a fake platform, as its handler sees it.
 *
 * @param path     the path below the platform's prefix, starting with {@code /} (e.g. {@code /rest/posts} for
 *                 {@code /linkedin/rest/posts}); a trailing slash is kept, since TikTok's endpoints have one
 * @param query    decoded query parameters
 * @param rawQuery the query string as sent (Rest.li wants URNs percent-encoded, which a test may check)
 * @param headers  header names in lower case
 * @param body     the body as text (these APIs take JSON or forms), null for an upload
 * @param upload   what an upload request's body carried ({@code PlatformFake.receivesBytes}), else null
 * @param failure  the armed failure this request consumed that its platform itself acts on (a denied
 *                 authorization, an Instagram container that fails processing), or null
 */
public record FakeRequest(
        String platform,
        String method,
        String path,
        Map<String, List<String>> query,
        String rawQuery,
        Map<String, List<String>> headers,
        String body,
        ReceivedBytes upload,
        ArmedFailure failure) {

    public FakeRequest withFailure(ArmedFailure consumed) {
        return new FakeRequest(platform, method, path, query, rawQuery, headers, body, upload, consumed);
    }

    /** The path's regex groups when the method and the whole path match, else null. */
    public List<String> match(String method, String pathPattern) {
        if (!this.method.equals(method)) {
            return null;
        }
        Matcher matcher = Pattern.compile(pathPattern).matcher(path);
        if (!matcher.matches()) {
            return null;
        }
        List<String> groups = new ArrayList<>();
        for (int i = 1; i <= matcher.groupCount(); i++) {
            groups.add(matcher.group(i));
        }
        return groups;
    }

    public boolean is(String method, String pathPattern) {
        return match(method, pathPattern) != null;
    }

    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase());
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    public String queryParameter(String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** A positive integer query parameter ({@code count}, {@code limit}, {@code page_size}), else the fallback. */
    public int intQueryParameter(String name, int fallback) {
        try {
            String value = queryParameter(name);
            return value == null ? fallback : Math.max(1, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** The token of an {@code Authorization: Bearer} header, or null. */
    public String bearerToken() {
        String authorization = header("authorization");
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return authorization.substring(7).trim();
    }

    /** The body read as {@code application/x-www-form-urlencoded} (first value of each field). */
    public Map<String, String> form() {
        Map<String, String> form = new LinkedHashMap<>();
        if (body == null || body.isBlank()) {
            return form;
        }
        for (String pair : body.split("&")) {
            int equals = pair.indexOf('=');
            String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            form.putIfAbsent(name, value);
        }
        return form;
    }
}
