package dev.herald.delivery.provider.media;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cutting one streamed source into chunks: buffers that straddle a chunk's end are split, the rest waits for the next
 * chunk, a receiver that pauses after every buffer still gets every byte in order, and a source that ends short fails
 * the chunk that needed more.
 */
class SourceChunksTest {

    /** A source that hands out {@code piece}-byte buffers of {@code data} while resumed, on the caller's thread. */
    private static final class Source implements ReadStream<Buffer> {
        private final byte[] data;
        private final int piece;
        private int position;
        private boolean paused = true;
        private boolean pumping;
        private boolean ended;
        private Handler<Buffer> handler;
        private Handler<Void> endHandler;
        private int buffersOut;

        Source(byte[] data, int piece) {
            this.data = data;
            this.piece = piece;
        }

        @Override
        public ReadStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
            return this;
        }

        @Override
        public ReadStream<Buffer> handler(Handler<Buffer> handler) {
            this.handler = handler;
            return this;
        }

        @Override
        public ReadStream<Buffer> pause() {
            paused = true;
            return this;
        }

        @Override
        public ReadStream<Buffer> resume() {
            paused = false;
            if (pumping) {
                return this;
            }
            pumping = true;
            try {
                while (!paused && position < data.length) {
                    int length = Math.min(piece, data.length - position);
                    Buffer buffer = Buffer.buffer().appendBytes(data, position, length);
                    position += length;
                    buffersOut++;
                    handler.handle(buffer);
                }
                if (position == data.length && !ended && !paused) {
                    ended = true;
                    endHandler.handle(null);
                }
            } finally {
                pumping = false;
            }
            return this;
        }

        @Override
        public ReadStream<Buffer> fetch(long amount) {
            return resume();
        }

        @Override
        public ReadStream<Buffer> endHandler(Handler<Void> endHandler) {
            this.endHandler = endHandler;
            return this;
        }
    }

    /** What one chunk's receiver got. */
    private static final class Received {
        final Buffer bytes = Buffer.buffer();
        int ends;
        Throwable failure;
    }

    private static byte[] data(int size) {
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte) (i * 31 + 7);
        }
        return data;
    }

    /** Reads one chunk the way a slow receiver does: a pause after every buffer, then a resume. */
    private static Received read(ReadStream<Buffer> chunk) {
        Received received = new Received();
        chunk.pause();
        chunk.endHandler(done -> received.ends++);
        chunk.exceptionHandler(failure -> received.failure = failure);
        chunk.handler(buffer -> {
            received.bytes.appendBuffer(buffer);
            chunk.pause();
        });
        for (int turns = 0; received.ends == 0 && received.failure == null && turns < 10_000; turns++) {
            chunk.resume();
        }
        return received;
    }

    @Test
    void everyChunkGetsExactlyItsBytesInOrderWhateverTheSourcesBufferSizes() {
        byte[] data = data(25_123);
        Source source = new Source(data, 7_000);
        SourceChunks chunks = new SourceChunks(source);

        List<Received> received = new ArrayList<>();
        received.add(read(chunks.next(10_000)));
        received.add(read(chunks.next(10_000)));
        received.add(read(chunks.next(5_123)));

        assertThat(received).allSatisfy(chunk -> {
            assertThat(chunk.ends).isEqualTo(1);
            assertThat(chunk.failure).isNull();
        });
        assertThat(received.get(0).bytes.getBytes()).isEqualTo(java.util.Arrays.copyOfRange(data, 0, 10_000));
        assertThat(received.get(1).bytes.getBytes()).isEqualTo(java.util.Arrays.copyOfRange(data, 10_000, 20_000));
        assertThat(received.get(2).bytes.getBytes()).isEqualTo(java.util.Arrays.copyOfRange(data, 20_000, 25_123));
        // Read once: four buffers of 7,000 bytes (the last one shorter), whatever the chunks' boundaries.
        assertThat(source.buffersOut).isEqualTo(4);
    }

    @Test
    void aReceiverThatNeverPausesGetsTheChunkInOneGo() {
        byte[] data = data(20_000);
        SourceChunks chunks = new SourceChunks(new Source(data, 3_000));
        Buffer first = Buffer.buffer();
        int[] ends = new int[1];
        ReadStream<Buffer> chunk = chunks.next(12_500);
        chunk.endHandler(done -> ends[0]++);
        chunk.handler(first::appendBuffer);

        assertThat(first.length()).isEqualTo(12_500);
        assertThat(ends[0]).isEqualTo(1);
        Received second = read(chunks.next(7_500));
        assertThat(second.bytes.getBytes()).isEqualTo(java.util.Arrays.copyOfRange(data, 12_500, 20_000));
    }

    @Test
    void aSourceThatEndsShortFailsTheChunkThatNeededMore() {
        SourceChunks chunks = new SourceChunks(new Source(data(15_000), 4_000));

        assertThat(read(chunks.next(10_000)).ends).isEqualTo(1);
        Received short_ = read(chunks.next(10_000));

        assertThat(short_.ends).isZero();
        assertThat(short_.bytes.length()).isEqualTo(5_000);
        assertThat(short_.failure).isInstanceOf(MediaRefused.class);
        assertThat(((MediaRefused) short_.failure).error().details()).containsEntry("reason", "source_changed");
    }
}
