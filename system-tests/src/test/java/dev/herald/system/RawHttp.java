package dev.herald.system;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, byte for byte, for what HTTP clients refuse to send (CR/LF or non-ASCII bytes in
 * a header, a declared length with no body, oversized request lines) and to see the response head exactly as the
 * gateway wrote it, header lines and all.
 */
final class RawHttp {
    private RawHttp() {}

    /** A response as received: status, each header line as sent, and the body (de-chunked). */
    record Answer(int status, List<String> headerLines, String body, long millis) {
        String header(String name) {
            String prefix = name.toLowerCase(Locale.ROOT) + ":";
            return headerLines.stream()
                    .filter(line -> line.toLowerCase(Locale.ROOT).startsWith(prefix))
                    .map(line -> line.substring(prefix.length()).trim())
                    .findFirst()
                    .orElse(null);
        }

        List<String> headerNames() {
            return headerLines.stream()
                    .map(line ->
                            line.substring(0, Math.max(0, line.indexOf(':'))).toLowerCase(Locale.ROOT))
                    .toList();
        }
    }

    /**
     * Sends {@code head} (request line and header lines, without the final empty line) as ISO-8859-1 bytes, then
     * {@code body} (may be null), and reads the answer. Writing may fail once the gateway has answered and closed
     * (an oversized body), which is what the test wants to see: the answer is read anyway.
     */
    static Answer exchange(String head, byte[] body) throws IOException {
        URI base = URI.create(RunningSuite.get().gatewayUrl());
        long started = System.nanoTime();
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write((head + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                if (body != null) {
                    out.write(body);
                }
                out.flush();
            } catch (IOException e) {
                // The gateway answered early and closed; read what it said.
            }
            return read(socket.getInputStream(), started);
        }
    }

    private static Answer read(InputStream in, long started) throws IOException {
        ByteArrayOutputStream headBytes = new ByteArrayOutputStream();
        int last4 = 0;
        while (last4 != 0x0d0a0d0a) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before a complete response head: "
                        + headBytes.toString(StandardCharsets.ISO_8859_1));
            }
            headBytes.write(b);
            last4 = (last4 << 8) | b;
        }
        String headText = headBytes.toString(StandardCharsets.ISO_8859_1);
        String[] lines = headText.substring(0, headText.length() - 4).split("\r\n", -1);
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        List<String> headers = new ArrayList<>(List.of(lines).subList(1, lines.length));
        Answer partial = new Answer(status, headers, "", 0);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try {
            String length = partial.header("content-length");
            if (length != null) {
                body.write(in.readNBytes(Integer.parseInt(length)));
            } else if ("chunked".equalsIgnoreCase(partial.header("transfer-encoding"))) {
                while (true) {
                    String size = readLine(in);
                    int n = Integer.parseInt(size.split(";")[0].trim(), 16);
                    if (n == 0) {
                        readLine(in);
                        break;
                    }
                    body.write(in.readNBytes(n));
                    readLine(in);
                }
            }
        } catch (SocketTimeoutException e) {
            // What arrived is what there is.
        }
        return new Answer(
                status, headers, body.toString(StandardCharsets.UTF_8), (System.nanoTime() - started) / 1_000_000);
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    /** The request head for {@code method path} on the gateway with these extra header lines. */
    static String head(String method, String path, String apiKey, String... headerLines) {
        URI base = URI.create(RunningSuite.get().gatewayUrl());
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":"
                + base.getPort() + "\r\nConnection: close");
        if (apiKey != null) {
            head.append("\r\nAuthorization: Bearer ").append(apiKey);
        }
        for (String line : headerLines) {
            head.append("\r\n").append(line);
        }
        return head.toString();
    }
}
