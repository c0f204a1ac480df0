package dev.herald.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Picks ports nobody listens on, for tests that must not collide with a running suite. */
public final class FreePorts {
    /**
     * Ports already handed out in this JVM. The kernel may give the same ephemeral port to two probes in a row
     * (each probe closes its socket before anything binds the port), so callers picking several ports at once
     * would otherwise sometimes get a duplicate.
     */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

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
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
