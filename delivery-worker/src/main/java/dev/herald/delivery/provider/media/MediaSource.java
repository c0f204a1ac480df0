package dev.herald.delivery.provider.media;

import dev.herald.common.net.PublicAddresses;
import dev.herald.common.net.PublicUrls;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.MediaIngestConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A post's media at its URL, fetched for upload (the SSRF guard at transfer time, OWASP API7). posts-service checked
 * the URL at acceptance, but DNS can change since: here the URL must be absolute {@code https}, its host must resolve
 * now, every address it resolves to must be public ({@link PublicUrls}, shared with webhook receivers), and the
 * connection goes to the very address checked. Redirects are not followed (a redirect could lead anywhere; the customer gives the final URL).
 * The size comes first ({@code HEAD}, else the {@code GET}'s {@code Content-Length}); a source without one, or above
 * {@code herald.media.max-bytes}, is refused before any byte moves. {@code herald.media.allow-private-urls} (local runs
 * and tests only) admits plain http and non-public addresses.
 */
public class MediaSource {
    private static final Pattern CONTENT_RANGE = Pattern.compile("^bytes (\\d+)-(\\d+)/(\\d+|\\*)$");

    /** Turns a host name into its addresses (the JDK's resolver, or a test's). */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** A source that may be fetched: where, how long, and what type its host says it is. */
    public record Located(String url, StreamingHttp.Endpoint endpoint, long size, String contentType) {}

    private final Vertx vertx;
    private final StreamingHttp http;
    private final long maxBytes;
    private final PublicUrls urls;

    public MediaSource(Vertx vertx, StreamingHttp http, MediaIngestConfig config, Resolver resolver) {
        this.vertx = vertx;
        this.http = http;
        this.maxBytes = config.maxBytes();
        // A literal address is parsed, never looked up.
        this.urls = new PublicUrls(
                config.allowPrivateUrls(),
                host -> PublicAddresses.isLiteral(host)
                        ? new InetAddress[] {InetAddress.getByName(host)}
                        : resolver.resolve(host));
    }

    /** Checks the URL and learns the size; fails with {@link MediaRefused} when the source may or can not be used. */
    public Uni<Located> locate(String url) {
        return vet(url).flatMap(endpoint -> http.send(HttpMethod.HEAD, endpoint, Map.of(), null)
                .onFailure()
                .transform(failure -> unreachable(url, failure))
                .flatMap(head -> {
                    Long size = head.status() == 200 ? length(head.header("Content-Length")) : null;
                    if (size != null) {
                        return Uni.createFrom()
                                .item(located(url, endpoint, head.status(), size, head.header("Content-Type")));
                    }
                    // Some hosts answer HEAD 403/405 (signed URLs for GET only) or leave the length out: the GET's
                    // headers tell, and the body is not read.
                    return http.open(HttpMethod.GET, endpoint, Map.of())
                            .onFailure()
                            .transform(failure -> unreachable(url, failure))
                            .map(response -> {
                                StreamingHttp.discard(response);
                                return located(
                                        url,
                                        endpoint,
                                        response.statusCode(),
                                        length(response.getHeader("Content-Length")),
                                        response.getHeader("Content-Type"));
                            });
                }));
    }

    /**
     * The source's body from {@code offset} on, paused for the caller to stream ({@code Range} when resuming). A host
     * that ignores the range, or whose length changed, is refused: the bytes would not continue the upload.
     */
    public Uni<HttpClientResponse> open(Located source, long offset) {
        Map<String, String> headers = offset == 0 ? Map.of() : Map.of("Range", "bytes=" + offset + "-");
        return http.open(HttpMethod.GET, source.endpoint(), headers)
                .onFailure()
                .transform(failure -> unreachable(source.url(), failure))
                .map(response -> {
                    int status = response.statusCode();
                    Long length = length(response.getHeader("Content-Length"));
                    boolean whole = offset == 0 && status == 200 && length != null && length == source.size();
                    boolean rest = offset > 0
                            && status == 206
                            && continues(response.getHeader("Content-Range"), offset, source.size());
                    if (whole || rest) {
                        return response;
                    }
                    StreamingHttp.discard(response);
                    if (status >= 400) {
                        throw refusedByHost(source.url(), status);
                    }
                    throw new MediaRefused(new TargetError(
                            TargetError.MEDIA_UNAVAILABLE,
                            "The media at " + source.url()
                                    + " changed or cannot be fetched from byte " + offset + " (HTTP " + status
                                    + "); the upload"
                                    + " cannot continue.",
                            true,
                            Map.of("reason", "source_changed", "media_url", source.url())));
                });
    }

    private static boolean continues(String contentRange, long offset, long size) {
        Matcher range = contentRange == null ? null : CONTENT_RANGE.matcher(contentRange.strip());
        return range != null
                && range.matches()
                && Long.parseLong(range.group(1)) == offset
                && Long.parseLong(range.group(2)) == size - 1
                && (range.group(3).equals("*") || Long.parseLong(range.group(3)) == size);
    }

    private Located located(String url, StreamingHttp.Endpoint endpoint, int status, Long size, String contentType) {
        if (status != 200) {
            throw refusedByHost(url, status);
        }
        if (size == null || size == 0) {
            throw new MediaRefused(new TargetError(
                    TargetError.MEDIA_UNAVAILABLE,
                    "The media at " + url
                            + " has no length (Content-Length): Herald must know the size before it moves any byte.",
                    false,
                    Map.of("reason", "length_unknown", "media_url", url)));
        }
        if (size > maxBytes) {
            throw new MediaRefused(new TargetError(
                    TargetError.MEDIA_TOO_LARGE,
                    "The media at " + url + " is " + size + " bytes; Herald uploads at most " + maxBytes + ".",
                    false,
                    Map.of("size_bytes", size, "max_bytes", maxBytes, "media_url", url)));
        }
        return new Located(
                url,
                endpoint,
                size,
                contentType == null || contentType.isBlank() ? "application/octet-stream" : contentType);
    }

    private static MediaRefused refusedByHost(String url, int status) {
        // A host's 5xx or 429 may pass; a 4xx (gone, forbidden, an expired signed URL) will not.
        boolean retryable = status >= 500 || status == 429 || status == 408;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("reason", "source_status");
        details.put("source_status", status);
        details.put("media_url", url);
        return new MediaRefused(new TargetError(
                TargetError.MEDIA_UNAVAILABLE,
                "The media host answered HTTP " + status + " for " + url + ".",
                retryable,
                details));
    }

    private static MediaRefused unreachable(String url, Throwable failure) {
        if (failure instanceof MediaRefused refused) {
            return refused;
        }
        return new MediaRefused(new TargetError(
                TargetError.MEDIA_UNAVAILABLE,
                "The media host of " + url + " could not be reached ("
                        + failure.getClass().getSimpleName() + ").",
                true,
                Map.of("reason", "source_unreachable", "media_url", url)));
    }

    private static Long length(String header) {
        return header != null && header.strip().matches("\\d{1,18}") ? Long.parseLong(header.strip()) : null;
    }

    /**
     * The URL's endpoint at a checked address ({@link PublicUrls}, the rules webhook receivers follow too); fails with
     * {@link MediaRefused} when it may not be used. A fragment never reaches the host, so it is dropped, not refused.
     */
    Uni<StreamingHttp.Endpoint> vet(String url) {
        String requested = url != null && url.indexOf('#') >= 0 ? url.substring(0, url.indexOf('#')) : url;
        Uni<StreamingHttp.Endpoint> checked = Uni.createFrom().item(() -> endpoint(url, requested));
        if (urls.checksWithoutLookup(requested)) {
            return checked;
        }
        // Resolving blocks: on a worker thread, never the event loop.
        return Uni.createFrom()
                .completionStage(
                        () -> vertx.<StreamingHttp.Endpoint>executeBlocking(() -> endpoint(url, requested), false)
                                .toCompletionStage());
    }

    private StreamingHttp.Endpoint endpoint(String url, String requested) {
        try {
            PublicUrls.Target target = urls.check(requested);
            return new StreamingHttp.Endpoint(
                    target.host(), target.port(), target.ssl(), target.requestUri(), target.address());
        } catch (PublicUrls.RefusedUrl refused) {
            String message = "The media URL " + refused.getMessage() + "; nothing was fetched.";
            Map<String, Object> details = Map.of("reason", reason(refused.problem()), "media_url", String.valueOf(url));
            // DNS may be back later (the URL passed acceptance); a wrong form or a private address will not change.
            throw new MediaRefused(new TargetError(
                    TargetError.MEDIA_UNAVAILABLE,
                    message,
                    refused.problem() == PublicUrls.Problem.UNRESOLVED,
                    details));
        }
    }

    private static String reason(PublicUrls.Problem problem) {
        switch (problem) {
            case FORM:
                return "invalid_url";
            case UNRESOLVED:
                return "host_unresolved";
            default:
                return "private_address";
        }
    }
}
