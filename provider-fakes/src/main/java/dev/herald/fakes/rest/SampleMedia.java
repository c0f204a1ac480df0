package dev.herald.fakes.rest;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sample media files to post in live mode against the fakes: {@code GET /_fakes/media/<name>?bytes=<size>} serves
 * {@code size} bytes that depend only on the name, the same on every request and every machine (blocks of a seeded
 * generator), with the type the name's extension says, {@code HEAD}, and {@code Range} requests ({@code 206}), as a
 * media host does. The bytes are made as they are sent, with back-pressure: a 300 MiB file costs no memory. A test
 * reads the file itself to know the SHA-256 the platform fake must have received.
 */
@ApplicationScoped
public class SampleMedia {
    static final int BLOCK = 64 * 1024;
    static final long MAX_BYTES = 4L * 1024 * 1024 * 1024;
    private static final Pattern RANGE = Pattern.compile("^bytes=(\\d+)-(\\d*)$");

    void routes(@Observes Router router) {
        router.route(HttpMethod.GET, "/_fakes/media/:name").order(-10).handler(this::serve);
        router.route(HttpMethod.HEAD, "/_fakes/media/:name").order(-10).handler(this::serve);
    }

    private void serve(RoutingContext context) {
        String name = context.pathParam("name");
        String bytes = context.queryParams().get("bytes");
        HttpServerResponse response = context.response();
        if (bytes == null
                || !bytes.matches("\\d{1,10}")
                || Long.parseLong(bytes) < 1
                || Long.parseLong(bytes) > MAX_BYTES) {
            response.setStatusCode(400)
                    .putHeader("Content-Type", "application/json")
                    .end("{\"error\":{\"code\":\"invalid_request\",\"message\":\"bytes must be 1 to " + MAX_BYTES
                            + "\"}}");
            return;
        }
        long size = Long.parseLong(bytes);
        byte[] header;
        try {
            header = header(context, name, size);
        } catch (IllegalArgumentException e) {
            response.setStatusCode(400)
                    .putHeader("Content-Type", "application/json")
                    .end("{\"error\":{\"code\":\"invalid_request\",\"message\":\"" + e.getMessage() + "\"}}");
            return;
        }
        long first = 0;
        long last = size - 1;
        String range = context.request().getHeader("Range");
        if (range != null) {
            Matcher matcher = RANGE.matcher(range.trim());
            if (!matcher.matches() || Long.parseLong(matcher.group(1)) >= size) {
                response.setStatusCode(416)
                        .putHeader("Content-Range", "bytes */" + size)
                        .end();
                return;
            }
            first = Long.parseLong(matcher.group(1));
            last = matcher.group(2).isEmpty() ? size - 1 : Math.min(size - 1, Long.parseLong(matcher.group(2)));
            response.setStatusCode(206).putHeader("Content-Range", "bytes " + first + "-" + last + "/" + size);
        }
        response.putHeader("Content-Type", contentType(name))
                .putHeader("Accept-Ranges", "bytes")
                .putHeader("Content-Length", Long.toString(last - first + 1));
        if (context.request().method() == HttpMethod.HEAD) {
            response.end();
            return;
        }
        send(response, name.hashCode(), header, first, last + 1);
    }

    /**
     * The header {@code width}, {@code height} and {@code seconds} ask for; a {@code .pdf} always starts as a PDF does
     * (its magic, so a probe knows it for a document); null otherwise.
     */
    private static byte[] header(RoutingContext context, String name, long size) {
        String width = context.queryParams().get("width");
        String height = context.queryParams().get("height");
        if (width == null && height == null) {
            return name.toLowerCase(Locale.ROOT).endsWith(".pdf") && size >= SampleHeaders.PDF.length
                    ? SampleHeaders.PDF.clone()
                    : null;
        }
        String seconds = context.queryParams().get("seconds");
        if (width == null
                || height == null
                || !width.matches("[1-9]\\d{0,4}")
                || !height.matches("[1-9]\\d{0,4}")
                || seconds != null && !seconds.matches("\\d{1,5}")) {
            throw new IllegalArgumentException("width and height must be 1 to 99999 together, seconds 0 to 99999");
        }
        byte[] header = SampleHeaders.of(
                        name,
                        Integer.parseInt(width),
                        Integer.parseInt(height),
                        seconds == null ? 0 : Integer.parseInt(seconds),
                        size)
                .orElseThrow(() -> new IllegalArgumentException("only .png, .jpg, .mp4 and .mov files take a header"));
        if (header.length > Math.min(size, BLOCK)) {
            throw new IllegalArgumentException("bytes must be at least " + header.length + " for this header");
        }
        return header;
    }

    /** Writes bytes [from, to) block by block, waiting for the client whenever the write queue is full. */
    private static void send(HttpServerResponse response, long seed, byte[] header, long from, long to) {
        long position = from;
        while (position < to && !response.writeQueueFull()) {
            long block = position / BLOCK;
            byte[] bytes = block(seed, block);
            if (block == 0 && header != null) {
                System.arraycopy(header, 0, bytes, 0, header.length);
            }
            int start = (int) (position - block * BLOCK);
            int end = (int) Math.min(BLOCK, to - block * BLOCK);
            response.write(Buffer.buffer().appendBytes(bytes, start, end - start));
            position = block * BLOCK + end;
        }
        if (position >= to) {
            response.end();
            return;
        }
        long next = position;
        response.drainHandler(drained -> send(response, seed, header, next, to));
    }

    /** Block {@code index} of a file: the same bytes for the same name, whichever range asks for them. */
    static byte[] block(long seed, long index) {
        byte[] bytes = new byte[BLOCK];
        new SplittableRandom(seed * 1_000_003L + index).nextBytes(bytes);
        return bytes;
    }

    static String contentType(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".mp4")) {
            return "video/mp4";
        }
        if (lower.endsWith(".mov")) {
            return "video/quicktime";
        }
        if (lower.endsWith(".jpg") || lower.endsWith(".jpeg")) {
            return "image/jpeg";
        }
        if (lower.endsWith(".png")) {
            return "image/png";
        }
        if (lower.endsWith(".pdf")) {
            return "application/pdf";
        }
        return "application/octet-stream";
    }
}
