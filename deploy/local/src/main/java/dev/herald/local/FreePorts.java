package dev.herald.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** Picks ports nobody listens on, for tests that must not collide with a running suite. */
public final class FreePorts {
    /**
     * Ports already handed out in this JVM. The kernel may give the same ephemeral port to two probes in a row
     * (each probe closes its socket before anything binds the port), so callers picking several ports at once
     * would otherwise sometimes get a duplicate.
     */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    /** Lowest port handed out: above the well-known and commonly configured ones (5432, 8080, 9092, ...). */
    static final int LOWEST = 10_000;

    /**
     * One past the highest port handed out: the start of the kernel's ephemeral range. A port picked from that
     * range can be given to an outgoing connection (a Kafka or PostgreSQL client) between the moment it is picked
     * and the moment a server binds it, and the bind then fails with "Address already in use".
     */
    static final int ABOVE_HIGHEST = ephemeralRangeStart();

    private FreePorts() {}

    public static int next() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = probe();
            if (HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port found that was not handed out already");
    }

    private static int probe() {
        if (ABOVE_HIGHEST - LOWEST < 1_000) {
            return kernelChosen();
        }
        for (int attempt = 0; attempt < 1_000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, ABOVE_HIGHEST);
            if (!isTaken(port)) {
                return port;
            }
        }
        return kernelChosen();
    }

    private static int kernelChosen() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Linux publishes its range; elsewhere the IANA dynamic range (49152-65535) is the usual default. Read line by
     * line: procfs reports a size of 0, and whole-file reads that trust the size come back truncated on some kernels.
     */
    private static int ephemeralRangeStart() {
        try (BufferedReader reader = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            return Integer.parseInt(reader.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 49_152;
        }
    }

    /**
     * Whether binding {@code 127.0.0.1:port} would fail, i.e. something listens there (on loopback or on all
     * interfaces). Ports merely in TIME_WAIT count as free, as they do for the servers we start.
     */
    public static boolean isTaken(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** Whether something accepts connections on {@code 127.0.0.1:port}. */
    public static boolean isListening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
