package dev.herald.delivery.provider.media;

import dev.herald.common.wire.TargetError;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;
import java.util.Map;

/**
 * One fetched source cut into consecutive chunks, each a stream of exactly the bytes asked for, for platforms that take
 * an upload in several requests (TikTok's {@code FILE_UPLOAD}). The source is read once, at the pace each chunk's
 * receiver takes it: bytes that arrive past a chunk's end wait (one buffer at most) for the next chunk, and the source
 * stays paused between chunks, so no more than a few buffers of the file are ever held.
 */
public final class SourceChunks {
    private final ReadStream<Buffer> source;
    private Chunk current;
    private Buffer early;
    private boolean ended;
    private boolean handing;
    private Throwable failure;

    /** {@code source} paused, as {@link MediaSource#open} answers it. */
    public SourceChunks(ReadStream<Buffer> source) {
        this.source = source;
        source.handler(this::received);
        source.endHandler(done -> ended());
        source.exceptionHandler(this::failed);
    }

    /** The next {@code length} bytes of the source, once the chunk before has been read whole. */
    public synchronized ReadStream<Buffer> next(long length) {
        if (current != null && current.remaining > 0) {
            throw new IllegalStateException("the previous chunk still has " + current.remaining + " bytes to read");
        }
        current = new Chunk(length);
        return current;
    }

    private void received(Buffer buffer) {
        Handler<Buffer> data;
        Handler<Void> end = null;
        Buffer part;
        synchronized (this) {
            Chunk chunk = current;
            if (chunk == null
                    || chunk.paused
                    || chunk.remaining == 0
                    || chunk.data == null
                    || early != null
                    || handing) {
                // Arrived while nobody reads (a pause takes effect between buffers): kept for whoever reads next.
                early = early == null ? buffer : early.appendBuffer(buffer);
                source.pause();
                return;
            }
            part = take(chunk, buffer);
            data = chunk.data;
            if (chunk.remaining == 0) {
                source.pause();
                end = chunk.end;
                chunk.end = null;
            }
        }
        data.handle(part);
        if (end != null) {
            end.handle(null);
        }
    }

    /** The part of {@code buffer} that belongs to {@code chunk}; the rest waits in {@link #early}. */
    private Buffer take(Chunk chunk, Buffer buffer) {
        if (buffer.length() <= chunk.remaining) {
            chunk.remaining -= buffer.length();
            return buffer;
        }
        int length = (int) chunk.remaining;
        early = buffer.getBuffer(length, buffer.length());
        chunk.remaining = 0;
        return buffer.getBuffer(0, length);
    }

    private void ended() {
        Handler<Throwable> error = null;
        long missing = 0;
        synchronized (this) {
            ended = true;
            if (current != null && current.remaining > 0 && early == null) {
                missing = current.remaining;
                error = current.exception;
            }
        }
        if (error != null) {
            error.handle(new MediaRefused(shortSource(missing)));
        }
    }

    private static TargetError shortSource(long missing) {
        return new TargetError(
                TargetError.MEDIA_UNAVAILABLE,
                "The media ended " + missing + " bytes before its announced length; the upload cannot finish.",
                true,
                Map.of("reason", "source_changed"));
    }

    private void failed(Throwable cause) {
        Handler<Throwable> error;
        synchronized (this) {
            failure = cause;
            error = current == null ? null : current.exception;
        }
        if (error != null) {
            error.handle(cause);
        }
    }

    /**
     * Delivers what waits from before, then lets the source flow again while the chunk still wants bytes. While a waiting
     * part is handed over nothing the source reads is delivered ({@code handing}), so nothing overtakes that part.
     */
    private void flow(Chunk chunk) {
        while (true) {
            Handler<Buffer> data;
            Buffer part;
            synchronized (this) {
                if (chunk != current || chunk.paused || chunk.data == null || handing) {
                    return;
                }
                if (early == null || chunk.remaining == 0) {
                    break;
                }
                Buffer waiting = early;
                early = null;
                part = take(chunk, waiting);
                data = chunk.data;
                handing = true;
            }
            try {
                data.handle(part);
            } finally {
                synchronized (this) {
                    handing = false;
                }
            }
        }
        Handler<Void> end = null;
        Handler<Throwable> error = null;
        Throwable cause = null;
        synchronized (this) {
            if (chunk != current) {
                return;
            }
            if (chunk.remaining == 0) {
                end = chunk.end;
                chunk.end = null;
            } else if (chunk.paused || early != null || handing) {
                return;
            } else if (failure != null || ended) {
                cause = failure != null ? failure : new MediaRefused(shortSource(chunk.remaining));
                error = chunk.exception;
            } else {
                source.resume();
            }
        }
        if (end != null) {
            end.handle(null);
        } else if (error != null) {
            error.handle(cause);
        }
    }

    private final class Chunk implements ReadStream<Buffer> {
        private long remaining;
        private boolean paused;
        private Handler<Buffer> data;
        private Handler<Void> end;
        private Handler<Throwable> exception;

        private Chunk(long length) {
            this.remaining = length;
        }

        @Override
        public ReadStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
            synchronized (SourceChunks.this) {
                exception = handler;
            }
            return this;
        }

        @Override
        public ReadStream<Buffer> handler(Handler<Buffer> handler) {
            synchronized (SourceChunks.this) {
                data = handler;
            }
            if (handler != null) {
                flow(this);
            }
            return this;
        }

        @Override
        public ReadStream<Buffer> pause() {
            synchronized (SourceChunks.this) {
                paused = true;
                source.pause();
            }
            return this;
        }

        @Override
        public ReadStream<Buffer> resume() {
            synchronized (SourceChunks.this) {
                paused = false;
            }
            flow(this);
            return this;
        }

        @Override
        public ReadStream<Buffer> fetch(long amount) {
            return resume();
        }

        @Override
        public ReadStream<Buffer> endHandler(Handler<Void> handler) {
            synchronized (SourceChunks.this) {
                end = handler;
            }
            return this;
        }
    }
}
