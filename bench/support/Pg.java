import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal PostgreSQL client (protocol 3, simple queries, trust authentication as the embedded server has) for the
 * polls of PostsBench, SoakBench and WebhooksBench during a run: a psql process per poll costs tens of milliseconds
 * of CPU on the benchmark machine, and the bench programs use the JDK only (no JDBC driver).
 */
final class Pg implements AutoCloseable {
    final Socket socket;
    final DataInputStream in;
    final DataOutputStream out;

    private Pg(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    /** Connects as {@code applicationName} (what pg_stat_activity shows); a query may take {@code readTimeoutMillis}. */
    static Pg connect(String host, int port, String user, String database, String applicationName, int readTimeoutMillis)
            throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.setSoTimeout(readTimeoutMillis);
        s.connect(new InetSocketAddress(host, port), 5_000);
        Pg pg = new Pg(s);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream startup = new DataOutputStream(body);
        startup.writeInt(196608);
        for (String kv : new String[] {"user", user, "database", database, "application_name", applicationName}) {
            startup.write(kv.getBytes(StandardCharsets.UTF_8));
            startup.write(0);
        }
        startup.write(0);
        pg.out.writeInt(body.size() + 4);
        body.writeTo(pg.out);
        pg.out.flush();
        while (true) {
            int type = pg.in.readUnsignedByte();
            byte[] payload = pg.readPayload();
            if (type == 'R' && ByteBuffer.wrap(payload).getInt() != 0) {
                throw new IOException("PostgreSQL asks for a password (authentication request "
                        + ByteBuffer.wrap(payload).getInt() + "); the bench expects trust authentication");
            }
            if (type == 'E') {
                throw new IOException("PostgreSQL refused the connection: " + errorText(payload));
            }
            if (type == 'Z') {
                return pg;
            }
        }
    }

    /** Runs one statement; the rows as text (null for SQL NULL). */
    synchronized List<String[]> query(String sql) throws IOException {
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        out.writeByte('Q');
        out.writeInt(text.length + 5);
        out.write(text);
        out.writeByte(0);
        out.flush();
        List<String[]> rows = new ArrayList<>();
        String error = null;
        while (true) {
            int type = in.readUnsignedByte();
            byte[] payload = readPayload();
            switch (type) {
                case 'D' -> {
                    ByteBuffer b = ByteBuffer.wrap(payload);
                    String[] row = new String[b.getShort()];
                    for (int i = 0; i < row.length; i++) {
                        int len = b.getInt();
                        if (len >= 0) {
                            row[i] = new String(payload, b.position(), len, StandardCharsets.UTF_8);
                            b.position(b.position() + len);
                        }
                    }
                    rows.add(row);
                }
                case 'E' -> error = errorText(payload);
                case 'Z' -> {
                    if (error != null) {
                        throw new IOException("PostgreSQL: " + error + " (" + sql + ")");
                    }
                    return rows;
                }
                default -> { }
            }
        }
    }

    byte[] readPayload() throws IOException {
        int length = in.readInt();
        byte[] payload = new byte[length - 4];
        in.readFully(payload);
        return payload;
    }

    static String errorText(byte[] payload) {
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < payload.length && payload[i] != 0) {
            char field = (char) payload[i++];
            int end = i;
            while (end < payload.length && payload[end] != 0) {
                end++;
            }
            if (field == 'M' || field == 'C') {
                text.append(field == 'C' ? " [" : "").append(new String(payload, i, end - i, StandardCharsets.UTF_8))
                        .append(field == 'C' ? "]" : "");
            }
            i = end + 1;
        }
        return text.toString().trim();
    }

    @Override
    public void close() {
        try {
            out.writeByte('X');
            out.writeInt(4);
            out.flush();
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}

