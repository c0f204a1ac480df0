import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One connection of the posts benchmark's load (PostsLoad's loops, SoakBench's open loop): sends slot k's post to
 * its workspace and keeps what the answer says (the 202's latency and post id, or the status and error code).
 */
final class Worker {
    final PostsRunState bench;
    final Phase phase;
    final HttpConnection connection;
    volatile long deadline;
    volatile long start;
    final LongList latencies = new LongList();
    final LongList serviceTimes = new LongList();
    final Map<String, Long> others = new TreeMap<>();
    final List<String> postIds = new ArrayList<>();
    final long[] perSecond = new long[4096];
    long ioErrors;
    long dropped;
    Exception failure;

    Worker(PostsRunState bench, Phase phase) {
        this.bench = bench;
        this.phase = phase;
        this.connection = new HttpConnection(bench.gatewayPort, 30_000, true);
    }

    void connect() throws IOException {
        connection.connect();
    }

    void close() {
        connection.close();
    }

    /** One request: slot k's workspace; latency from {@code from} (due time), service time from {@code sent}. */
    void exchange(long k, long from, long sent) {
        PostsRunState.Workspace w = bench.workspaces[(int) Math.floorMod(k, (long) bench.workspaces.length)];
        byte[] request = bench.request(k, w);
        try {
            connection.exchange(request);
            long t1 = System.nanoTime();
            if (connection.status == 202) {
                latencies.add(t1 - from);
                serviceTimes.add(t1 - sent);
                String id = find(connection.body, connection.bodyLength, "\"id\":\"pst_");
                if (id != null) {
                    postIds.add("pst_" + id);
                } else {
                    others.merge("202 without a pst_ id", 1L, Long::sum);
                }
                int second = (int) ((t1 - start) / 1_000_000_000L);
                if (second >= 0 && second < perSecond.length) {
                    perSecond[second]++;
                }
            } else {
                String code = find(connection.body, connection.bodyLength, "\"code\":\"");
                others.merge(connection.status + " " + (code == null ? "(no error code)" : code), 1L, Long::sum);
            }
            connection.reopenIfClosed();
        } catch (IOException e) {
            ioErrors++;
            connection.reopenAfterError();
        }
    }

    /** The text after {@code marker} up to the next double quote, or null. */
    static String find(byte[] bytes, int length, String marker) {
        byte[] m = marker.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + m.length <= length; i++) {
            for (int j = 0; j < m.length; j++) {
                if (bytes[i + j] != m[j]) {
                    continue outer;
                }
            }
            int from = i + m.length;
            for (int end = from; end < length; end++) {
                if (bytes[end] == '"') {
                    return new String(bytes, from, end - from, StandardCharsets.US_ASCII);
                }
            }
            return null;
        }
        return null;
    }
}
