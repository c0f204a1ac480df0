package dev.herald.webhooks.delivery;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;
import io.vertx.ext.web.codec.BodyCodec;
import io.vertx.ext.web.codec.spi.BodyStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads a receiver's answer keeping at most {@code limit} bytes of it, as text: the rest streams past and is
 * dropped, so a receiver answering gigabytes costs nothing but the time to read them. The text ends on a character
 * boundary, holds no NUL (PostgreSQL text cannot), and is at most {@code limit} bytes in UTF-8.
 */
final class CappedBody implements BodyCodec<String> {
    private final int limit;

    CappedBody(int limit) {
        this.limit = limit;
    }

    @Override
    public void create(Handler<AsyncResult<BodyStream<String>>> handler) {
        handler.handle(Future.succeededFuture(new Stream()));
    }

    /** {@code bytes} as text of at most {@code limit} UTF-8 bytes. */
    static String text(byte[] bytes, int limit) {
        int end = Math.min(bytes.length, limit);
        if (end < bytes.length) {
            while (end > 0 && (bytes[end] & 0xc0) == 0x80) {
                end--; // do not cut a character in two
            }
        }
        String text = new String(bytes, 0, end, StandardCharsets.UTF_8).replace("\u0000", "");
        // Invalid input decodes to U+FFFD (3 bytes), which can make the text longer than the bytes were.
        while (text.getBytes(StandardCharsets.UTF_8).length > limit) {
            text = text.substring(0, text.length() - 1);
        }
        return text;
    }

    private final class Stream implements BodyStream<String> {
        private final Promise<String> result = Promise.promise();
        private final Buffer kept = Buffer.buffer();

        @Override
        public Future<String> result() {
            return result.future();
        }

        @Override
        public void handle(Throwable failure) {
            result.tryFail(failure);
        }

        @Override
        public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
            return this;
        }

        @Override
        public Future<Void> write(Buffer data) {
            keep(data);
            return Future.succeededFuture();
        }

        @Override
        public void write(Buffer data, Handler<AsyncResult<Void>> handler) {
            keep(data);
            if (handler != null) {
                handler.handle(Future.succeededFuture());
            }
        }

        @Override
        public void end(Handler<AsyncResult<Void>> handler) {
            result.tryComplete(text(kept.getBytes(), limit));
            if (handler != null) {
                handler.handle(Future.succeededFuture());
            }
        }

        @Override
        public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
            return this;
        }

        @Override
        public boolean writeQueueFull() {
            return false;
        }

        @Override
        public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
            return this;
        }

        private void keep(Buffer data) {
            // One byte beyond the limit tells text() whether a character was cut.
            int room = limit + 1 - kept.length();
            if (room > 0) {
                kept.appendBuffer(data.length() <= room ? data : data.getBuffer(0, room));
            }
        }
    }
}
