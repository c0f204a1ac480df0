import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * One connection of a closed- or open-loop load client (Bench, PostsBench and SoakBench): a blocking HTTP/1.1
 * keep-alive socket on 127.0.0.1 that writes a prepared request and reads the whole answer (content-length or
 * chunked), so that the next request can follow at once. A JDK HttpClient per request would cost the client more
 * CPU than the gateway it measures on the 2-core benchmark machine.
 */
final class HttpConnection {
    private final int port;
    private final int readTimeoutMillis;
    private final boolean keepBody;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private final byte[] line = new byte[8192];

    /** The last answer: its status, whether the server keeps the connection, its X-RateLimit-Limit header. */
    int status;

    boolean keepAlive;
    String rateLimitLimit;
    /** The last answer's body, when kept (else it is skipped unread). */
    byte[] body = new byte[8192];

    int bodyLength;

    HttpConnection(int port, int readTimeoutMillis, boolean keepBody) {
        this.port = port;
        this.readTimeoutMillis = readTimeoutMillis;
        this.keepBody = keepBody;
    }

    void connect() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(readTimeoutMillis);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        in = new BufferedInputStream(socket.getInputStream(), 65536);
        out = socket.getOutputStream();
    }

    void close() {
        try {
            if (socket != null) {
                socket.close();
            }
        } catch (IOException ignored) {
            // closing
        }
    }

    /** Writes {@code request} and reads the whole answer into {@link #status} and the other fields. */
    void exchange(byte[] request) throws IOException {
        out.write(request);
        out.flush();
        readResponse();
    }

    /** After the answer's time is taken: a new connection when the server closed this one. */
    void reopenIfClosed() throws IOException {
        if (!keepAlive) {
            close();
            connect();
        }
    }

    /** After an I/O error: a new connection 10 ms later; if that fails, the next exchange fails fast and counts again. */
    void reopenAfterError() {
        close();
        try {
            Thread.sleep(10);
            connect();
        } catch (Exception again) {
            // counted by the next exchange
        }
    }

    private void readResponse() throws IOException {
        int n = readLine();
        if (n < 12) {
            throw new IOException("bad status line");
        }
        status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
        long contentLength = -1;
        boolean chunked = false;
        keepAlive = true;
        while ((n = readLine()) > 0) {
            String h = new String(line, 0, n, StandardCharsets.ISO_8859_1);
            int colon = h.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = h.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> contentLength = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> keepAlive = !value.equalsIgnoreCase("close");
                case "x-ratelimit-limit" -> rateLimitLimit = value;
                default -> {}
            }
        }
        bodyLength = 0;
        if (chunked) {
            while (true) {
                n = readLine();
                String size = new String(line, 0, n, StandardCharsets.ISO_8859_1);
                int semi = size.indexOf(';');
                long chunk = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
                if (chunk == 0) {
                    while (readLine() > 0) {
                        // trailers
                    }
                    break;
                }
                readBody(chunk);
                readLine();
            }
        } else if (contentLength >= 0) {
            readBody(contentLength);
        } else {
            throw new IOException("answer without length");
        }
    }

    private void readBody(long count) throws IOException {
        if (!keepBody) {
            skip(count);
            return;
        }
        int length = (int) count;
        if (bodyLength + length > body.length) {
            body = Arrays.copyOf(body, Math.max(body.length * 2, bodyLength + length));
        }
        int read = in.readNBytes(body, bodyLength, length);
        if (read < length) {
            throw new IOException("connection closed in body");
        }
        bodyLength += length;
    }

    private void skip(long count) throws IOException {
        while (count > 0) {
            long skipped = in.skip(count);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new IOException("connection closed in body");
                }
                skipped = 1;
            }
            count -= skipped;
        }
    }

    private int readLine() throws IOException {
        int n = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed");
            }
            if (b == '\n') {
                return n > 0 && line[n - 1] == '\r' ? n - 1 : n;
            }
            if (n == line.length) {
                throw new IOException("line too long");
            }
            line[n++] = (byte) b;
        }
    }
}
