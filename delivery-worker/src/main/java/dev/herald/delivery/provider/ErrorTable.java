package dev.herald.delivery.provider;

import static dev.herald.common.wire.TargetError.ACTION_CONTACT_SUPPORT;
import static dev.herald.common.wire.TargetError.ACTION_EDIT_CONTENT;
import static dev.herald.common.wire.TargetError.ACTION_RECONNECT;
import static dev.herald.common.wire.TargetError.ACTION_REPLACE_MEDIA;
import static dev.herald.common.wire.TargetError.ACTION_RETRY_LATER;
import static dev.herald.common.wire.TargetError.CATEGORY_AUTH;
import static dev.herald.common.wire.TargetError.CATEGORY_CONTENT;
import static dev.herald.common.wire.TargetError.CATEGORY_MEDIA;
import static dev.herald.common.wire.TargetError.CATEGORY_NETWORK;
import static dev.herald.common.wire.TargetError.CATEGORY_PLATFORM;
import static dev.herald.common.wire.TargetError.CATEGORY_RATE_LIMIT;

import dev.herald.common.wire.TargetError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One platform's documented error codes and how Herald files each of them: its {@code category}, the {@code action}
 * a customer can take, whether another attempt can succeed ({@link Kind}), and what it means in plain words. A
 * platform's {@code *Errors} class looks its answers up here and keeps only the control flow (which answer is a
 * refused token, which one may have published); docs/errors.md lists every table ({@link #markdown}).
 *
 * <p>Keys are the platform's own: {@code code 190} or {@code subcode 2207026} (Graph), TikTok's and YouTube's
 * reason strings as they are, {@code http 429} and {@code http 4xx} for an HTTP status or its class. A status no
 * platform row names falls back to {@link #HTTP}, the statuses every platform shares.
 */
public final class ErrorTable {

    /** What an answer filed under a row does to the delivery. */
    public enum Kind {
        /** The platform refused the access token: Herald fetches a fresh one and, failing that, asks for a reconnection. */
        TOKEN_REFUSED,
        /** Another attempt can succeed (a rate limit, an outage): the delivery retries with backoff. */
        RETRYABLE,
        /** The same post meets the same answer again: the target fails now. */
        FINAL
    }

    /** One documented error: {@code meaning} completes "Platform refused the post: ..." and ends without a full stop. */
    public record Row(String key, String category, String action, Kind kind, String meaning) {
        public boolean retryable() {
            return kind == Kind.RETRYABLE;
        }
    }

    /** The HTTP statuses every platform shares, and the failures that never reached one. */
    public static final ErrorTable HTTP = new ErrorTable(
            "The platform",
            List.of(
                    refuse(
                            "http 400",
                            CATEGORY_PLATFORM,
                            ACTION_CONTACT_SUPPORT,
                            "the platform found the request invalid"),
                    reauth("http 401", "the platform no longer accepts the account's access token"),
                    refuse(
                            "http 403",
                            CATEGORY_AUTH,
                            ACTION_RECONNECT,
                            "the account's grant does not allow this; reconnect it, granting every permission asked for"),
                    refuse(
                            "http 404",
                            CATEGORY_PLATFORM,
                            ACTION_CONTACT_SUPPORT,
                            "the platform does not know what was asked for"),
                    retry("http 408", CATEGORY_NETWORK, "the platform timed out waiting for the request"),
                    refuse(
                            "http 413",
                            CATEGORY_MEDIA,
                            ACTION_REPLACE_MEDIA,
                            "the media is larger than the platform takes"),
                    refuse(
                            "http 415",
                            CATEGORY_MEDIA,
                            ACTION_REPLACE_MEDIA,
                            "the media's type is not one the platform takes"),
                    refuse(
                            "http 422",
                            CATEGORY_CONTENT,
                            ACTION_EDIT_CONTENT,
                            "the platform refused the post's content"),
                    retry("http 429", CATEGORY_RATE_LIMIT, "the platform's rate limit was reached"),
                    refuse("http 4xx", CATEGORY_PLATFORM, ACTION_CONTACT_SUPPORT, "the platform refused the request"),
                    retry("http 5xx", CATEGORY_PLATFORM, "the platform failed to answer the request"),
                    retry("http 2xx", CATEGORY_PLATFORM, "the platform answered without what was asked for"),
                    retry("no_answer", CATEGORY_NETWORK, "no answer came (a refused or broken connection, a timeout)"),
                    retry(
                            "upload_interrupted",
                            CATEGORY_NETWORK,
                            "the connection failed mid-way; nothing was published, and the next attempt uploads again")));

    private static final Pattern TOKEN_LIKE = Pattern.compile("[A-Za-z0-9_\\-.~+/=]{40,}");
    private static final int MAX_SAID = 300;

    private final String platform;
    private final Map<String, Row> rows = new LinkedHashMap<>();

    private ErrorTable(String platform, List<Row> rows) {
        this.platform = platform;
        for (Row row : rows) {
            if (this.rows.put(row.key(), row) != null) {
                throw new IllegalArgumentException(platform + " lists " + row.key() + " twice");
            }
        }
    }

    /** {@code platform} names who speaks in messages ("TikTok said: ..."). */
    public static ErrorTable of(String platform, Row... rows) {
        return new ErrorTable(platform, List.of(rows));
    }

    /** A refused access token: reconnect the account. */
    public static Row reauth(String key, String meaning) {
        return new Row(key, CATEGORY_AUTH, ACTION_RECONNECT, Kind.TOKEN_REFUSED, meaning);
    }

    /** Worth another attempt: retry later. */
    public static Row retry(String key, String category, String meaning) {
        return new Row(key, category, ACTION_RETRY_LATER, Kind.RETRYABLE, meaning);
    }

    /** The platform's last word on this post. */
    public static Row refuse(String key, String category, String action, String meaning) {
        return new Row(key, category, action, Kind.FINAL, meaning);
    }

    public static String http(int status) {
        return "http " + status;
    }

    public String platform() {
        return platform;
    }

    public List<Row> rows() {
        return List.copyOf(rows.values());
    }

    /** The row of the first of {@code keys} this table lists (nulls skipped), or null. */
    public Row find(String... keys) {
        for (String key : keys) {
            Row row = key == null ? null : rows.get(key);
            if (row != null) {
                return row;
            }
        }
        return null;
    }

    /** The row of the first of {@code keys} this table lists, else the one of the answer's HTTP status ({@link #http(int)}). */
    public Row row(int status, String... keys) {
        Row found = find(keys);
        return found != null ? found : http(status, this);
    }

    private static Row http(int status, ErrorTable table) {
        String exact = http(status);
        String range = "http " + status / 100 + "xx";
        // The platform's row for the exact status, else the shared one, before either's row for the status's class.
        Row row = table.find(exact);
        for (Row next : new Row[] {HTTP.find(exact), table.find(range), HTTP.find(range), HTTP.find("http 4xx")}) {
            row = row != null ? row : next;
        }
        return row;
    }

    /** The row of an HTTP status alone, for an answer whose code says nothing once the status is known (a 5xx). */
    public Row httpRow(int status) {
        return http(status, this);
    }

    /** The row of one of {@link #HTTP}'s own keys ({@code no_answer}, {@code upload_interrupted}). */
    public static Row shared(String key) {
        Row row = HTTP.find(key);
        if (row == null) {
            throw new IllegalArgumentException("no shared row " + key);
        }
        return row;
    }

    /**
     * The error an answer filed under {@code row} fails its target with: {@code "what: meaning. Platform said: "..."
     * (code, HTTP status)."}, the platform's own words quoted when it gave some (never a JSON or HTML body, long
     * token-like strings masked), {@code code} and {@code status} (0: none) in brackets when known.
     */
    public TargetError error(Row row, String what, int status, String code, String said, Map<String, Object> details) {
        return new TargetError(
                TargetError.PROVIDER_ERROR,
                message(what, row, platform, said, code, status),
                row.retryable(),
                details,
                row.category(),
                row.action());
    }

    static String message(String what, Row row, String speaker, String said, String code, int status) {
        StringBuilder text =
                new StringBuilder(what).append(": ").append(row.meaning()).append('.');
        String quoted = quotable(said);
        if (!quoted.isEmpty()) {
            text.append(' ').append(speaker).append(" said: \"").append(quoted).append('"');
        }
        List<String> refs = new ArrayList<>();
        if (code != null && !code.isBlank()) {
            refs.add(code);
        }
        if (status > 0) {
            refs.add("HTTP " + status);
        }
        if (!refs.isEmpty()) {
            if (quoted.isEmpty()) {
                text.setLength(text.length() - 1);
            }
            text.append(" (").append(String.join(", ", refs)).append(").");
        }
        return text.toString();
    }

    /** A platform's message fit to quote: one line, at most 300 characters, no markup or token-like strings. */
    static String quotable(String said) {
        if (said == null) {
            return "";
        }
        String line = said.strip().replaceAll("\\s+", " ");
        if (line.startsWith("{") || line.startsWith("[") || line.startsWith("<")) {
            return "";
        }
        line = TOKEN_LIKE.matcher(line).replaceAll("[redacted]").replace('"', '\'');
        return line.length() <= MAX_SAID ? line : line.substring(0, MAX_SAID) + "...";
    }

    /** The table as docs/errors.md lists it: one row per key. */
    public String markdown() {
        StringBuilder text =
                new StringBuilder("| Key | Category | Action | Retried | Meaning |\n|---|---|---|---|---|\n");
        for (Row row : rows.values()) {
            text.append("| `")
                    .append(row.key())
                    .append("` | ")
                    .append(row.category())
                    .append(" | ")
                    .append(row.action())
                    .append(" | ")
                    .append(
                            switch (row.kind()) {
                                case TOKEN_REFUSED -> "after a token refresh";
                                case RETRYABLE -> "yes";
                                case FINAL -> "no";
                            })
                    .append(" | ")
                    .append(row.meaning())
                    .append(" |\n");
        }
        return text.toString();
    }
}
