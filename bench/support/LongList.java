import java.util.Arrays;

/** A growable list of primitive longs: every latency of a run is kept (exact percentiles), without boxing. */
final class LongList {
    long[] values = new long[4096];
    int size;

    void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = v;
    }

    void addAll(LongList other) {
        for (int i = 0; i < other.size; i++) {
            add(other.values[i]);
        }
    }

    long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
