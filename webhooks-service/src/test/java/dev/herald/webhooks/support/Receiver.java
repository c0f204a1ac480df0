package dev.herald.webhooks.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A local webhook receiver (JDK HttpServer) that records every request exactly as it arrived (raw body bytes,
 * headers) and answers from a script: a queue of answers used one per request, then a default answer. An answer
 * can wait before answering, or never answer.
 */
public final class Receiver implements AutoCloseable {
    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Deque<Answer> script = new ConcurrentLinkedDeque<>();
    private volatile Answer otherwise = Answer.status(200);

    /** What the receiver answers: a status, headers and a body, after a delay (or never). */
    public record Answer(int status, Map<String, String> headers, String body, long delayMillis, boolean hangs) {
        public static Answer status(int status) {
            return new Answer(status, Map.of(), "{\"ok\":" + (status < 300) + "}", 0, false);
        }

        public static Answer never() {
            return new Answer(0, Map.of(), "", 0, true);
        }

        public Answer withHeader(String name, String value) {
            Map<String, String> more = new java.util.HashMap<>(headers);
            more.put(name, value);
            return new Answer(status, Map.copyOf(more), body, delayMillis, hangs);
        }

        public Answer withBody(String newBody) {
            return new Answer(status, headers, newBody, delayMillis, hangs);
        }

        public Answer after(long millis) {
            return new Answer(status, headers, body, millis, hangs);
        }
    }

    /** A request as it arrived. */
    public record Request(String path, Map<String, List<String>> headers, byte[] body, Instant at) {
        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(entry -> entry.getKey().equalsIgnoreCase(name))
                    .map(entry -> entry.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    public Receiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "test-receiver");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Answers these, one per request, before the default. */
    public Receiver then(Answer... answers) {
        script.addAll(List.of(answers));
        return this;
    }

    /** The answer once the script is used up. */
    public Receiver otherwise(Answer answer) {
        this.otherwise = answer;
        return this;
    }

    public List<Request> requests() {
        return new ArrayList<>(requests);
    }

    public List<Request> awaitRequests(int count, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (requests.size() < count && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        return requests();
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        requests.add(new Request(
                exchange.getRequestURI().toString(), Map.copyOf(exchange.getRequestHeaders()), body, Instant.now()));
        Answer answer = script.poll();
        if (answer == null) {
            answer = otherwise;
        }
        try {
            if (answer.hangs()) {
                TimeUnit.SECONDS.sleep(120);
                return;
            }
            if (answer.delayMillis() > 0) {
                Thread.sleep(answer.delayMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        exchange.getResponseHeaders().add("content-type", "application/json");
        exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
