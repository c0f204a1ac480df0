package dev.herald.delivery.provider.media;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;
import java.io.IOException;

/**
 * One source stream carved into consecutive parts of given lengths, each a {@link ReadStream} of its own to send as
 * one request's body (a platform that takes a file in parts, such as LinkedIn's video upload: decision 147). The source
 * is fetched once, from its first byte to its last, and read only as fast as the current part's receiver takes it:
 * at most one buffer that crosses a part's end waits for the next part. Parts must be taken in order, each after the
 * one before has ended. Not thread-safe: everything runs on the source's event loop.
 */
public final class ByteSlices {
    private final ReadStream<Buffer> source;
    private Buffer carried;
    private Part current;
    private boolean sourceEnded;
    private Throwable sourceFailure;
    private long read;

    /** {@code source} paused (as {@link MediaSource#open} answers it); the slices resume it as parts take bytes. */
    public ByteSlices(ReadStream<Buffer> source) {
        this.source = source;
        source.handler(this::arrived);
        source.endHandler(ended -> ended());
        source.exceptionHandler(this::failed);
    }

    /** The next {@code length} bytes of the source, paused until piped. */
    public ReadStream<Buffer> next(long length) {
        if (current != null && current.remaining > 0) {
            throw new IllegalStateException("the part before has " + current.remaining + " bytes left");
        }
        current = new Part(length);
        return current;
    }

    /** After the last part: lets the source deliver its end, so its connection is released rather than left paused. */
    public void finish() {
        current = null;
        if (!sourceEnded) {
            source.resume();
        }
    }

    private void arrived(Buffer buffer) {
        read += buffer.length();
        carried = carried == null ? buffer : carried.appendBuffer(buffer);
        if (current != null) {
            current.deliver();
        }
    }

    private void ended() {
        sourceEnded = true;
        if (current != null) {
            current.deliver();
        }
    }

    private void failed(Throwable failure) {
        sourceFailure = failure;
        if (current != null) {
            current.fail(failure);
        }
    }

    private final class Part implements ReadStream<Buffer> {
        private long remaining;
        private boolean flowing;
        private boolean ended;
        private Handler<Buffer> handler;
        private Handler<Void> endHandler;
        private Handler<Throwable> exceptionHandler;

        private Part(long length) {
            this.remaining = length;
        }

        /** Hands the part what the source has carried over, then lets the source flow while the part wants more. */
        private void deliver() {
            while (flowing && !ended && current == this && carried != null && carried.length() > 0 && remaining > 0) {
                Buffer chunk = carried;
                if (chunk.length() > remaining) {
                    carried = chunk.getBuffer((int) remaining, chunk.length());
                    chunk = chunk.getBuffer(0, (int) remaining);
                } else {
                    carried = null;
                }
                remaining -= chunk.length();
                if (handler != null) {
                    handler.handle(chunk);
                }
            }
            if (ended || current != this) {
                return;
            }
            if (remaining == 0) {
                ended = true;
                source.pause();
                if (endHandler != null) {
                    endHandler.handle(null);
                }
                return;
            }
            if (sourceFailure != null) {
                fail(sourceFailure);
                return;
            }
            if (sourceEnded) {
                fail(new IOException("the source ended after " + read + " bytes, " + remaining + " short of the part"));
                return;
            }
            if (flowing) {
                source.resume();
            } else {
                source.pause();
            }
        }

        private void fail(Throwable failure) {
            if (!ended) {
                ended = true;
                if (exceptionHandler != null) {
                    exceptionHandler.handle(failure);
                }
            }
        }

        @Override
        public ReadStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
            this.exceptionHandler = handler;
            return this;
        }

        @Override
        public ReadStream<Buffer> handler(Handler<Buffer> handler) {
            this.handler = handler;
            return this;
        }

        @Override
        public ReadStream<Buffer> pause() {
            flowing = false;
            if (current == this && !ended) {
                source.pause();
            }
            return this;
        }

        @Override
        public ReadStream<Buffer> resume() {
            flowing = true;
            deliver();
            return this;
        }

        @Override
        public ReadStream<Buffer> fetch(long amount) {
            return amount > 0 ? resume() : this;
        }

        @Override
        public ReadStream<Buffer> endHandler(Handler<Void> endHandler) {
            this.endHandler = endHandler;
            return this;
        }
    }
}
