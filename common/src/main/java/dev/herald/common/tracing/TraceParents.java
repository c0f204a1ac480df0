package dev.herald.common.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * W3C {@code traceparent} values (version 00), the form in which a trace context is stored beside an outbox row
 * and travels as a Kafka header. HTTP calls mostly need none of this: Quarkus propagates the context over its REST
 * clients itself (the gateway's proxy, whose client is not traced, sets the header from {@link #current()}).
 * Kafka records do not have a request around them, so the context of the request that wrote an event is kept
 * with the event and picked up again by whoever consumes it.
 */
public final class TraceParents {
    /** The Kafka header (and the HTTP header) name. */
    public static final String HEADER = "traceparent";

    private static final Pattern FORMAT = Pattern.compile("^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$");

    private TraceParents() {}

    /** The current span's traceparent, or null outside any trace (a scheduler's tick, a test without a request). */
    public static String current() {
        return of(Span.current().getSpanContext());
    }

    /** The traceparent of a span context, or null when it is not valid. */
    public static String of(SpanContext context) {
        if (context == null || !context.isValid()) {
            return null;
        }
        return "00-" + context.getTraceId() + "-" + context.getSpanId() + "-"
                + context.getTraceFlags().asHex();
    }

    /** The trace id of a span context, or null when it is not valid (no trace). */
    public static String traceId(SpanContext context) {
        return context == null || !context.isValid() ? null : context.getTraceId();
    }

    /** A Kafka record's traceparent header (what the outbox relay set), or null when it has none. */
    public static String header(Headers headers) {
        Header header = headers == null ? null : headers.lastHeader(HEADER);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.US_ASCII);
    }

    /** The trace id of a traceparent, or null when the value is not one. */
    public static String traceId(String traceParent) {
        var matcher = traceParent == null ? null : FORMAT.matcher(traceParent);
        return matcher != null && matcher.matches() ? matcher.group(1) : null;
    }

    /**
     * A context whose parent span is the remote one the traceparent names; the root context when the value is
     * missing or malformed (a record from an older producer starts a trace of its own).
     */
    public static Context asParent(String traceParent) {
        var matcher = traceParent == null ? null : FORMAT.matcher(traceParent);
        if (matcher == null || !matcher.matches()) {
            return Context.root();
        }
        SpanContext remote = SpanContext.createFromRemoteParent(
                matcher.group(1), matcher.group(2), TraceFlags.fromHex(matcher.group(3), 0), TraceState.getDefault());
        return remote.isValid() ? Context.root().with(Span.wrap(remote)) : Context.root();
    }
}
