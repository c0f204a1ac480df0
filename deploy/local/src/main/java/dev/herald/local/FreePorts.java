package dev.herald.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Picks ports nobody listens on, for tests that must not collide with a running suite. */
public final class FreePorts {
    private FreePorts() {
    }

    public static int next() {
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
