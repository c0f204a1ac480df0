package dev.herald.deploy.helm;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The two Kubernetes API calls Helm's {@code lookup} makes for a Secret (discovery of {@code /api/v1}, then the
 * Secret), answered from memory on a loopback port. helm-java's template is a dry-run install that still talks to a
 * cluster for {@code lookup} (the helm CLI's template does not), and checksum/secret looks up the Secrets a service
 * reads; with this stub the chart tests render as an install against a cluster holding {@link #secrets} would.
 * The surefire configuration points {@code KUBECONFIG} at {@link #KUBECONFIG}, which {@link #start()} writes.
 */
final class KubernetesApiStub {
    static final Path KUBECONFIG = Path.of(System.getProperty("herald.kubeconfig", "target/test-kubeconfig"));
    private static final Pattern SECRET = Pattern.compile("^/api/v1/namespaces/([^/]+)/secrets/([^/]+)$");
    private static final String RESOURCES = """
            {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[
              {"name":"secrets","singularName":"secret","namespaced":true,"kind":"Secret","verbs":["get","list"]}]}""";

    /** Secrets of {@link RenderedChart#NAMESPACE} by name: their data, plain text by key. */
    static final Map<String, Map<String, String>> secrets = new ConcurrentHashMap<>();

    private static HttpServer server;

    private KubernetesApiStub() {}

    static synchronized void start() {
        if (server != null) {
            return;
        }
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", KubernetesApiStub::answer);
            server.start();
            Files.createDirectories(KUBECONFIG.toAbsolutePath().getParent());
            Files.writeString(KUBECONFIG, """
                    apiVersion: v1
                    kind: Config
                    clusters:
                      - name: stub
                        cluster: {server: "http://127.0.0.1:%d"}
                    users:
                      - name: stub
                        user: {token: stub}
                    contexts:
                      - name: stub
                        context: {cluster: stub, user: stub, namespace: %s}
                    current-context: stub
                    """.formatted(server.getAddress().getPort(), RenderedChart.NAMESPACE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        Matcher secret = SECRET.matcher(path);
        if (path.equals("/api/v1")) {
            respond(exchange, 200, RESOURCES);
        } else if (secret.matches()
                && secret.group(1).equals(RenderedChart.NAMESPACE)
                && secrets.containsKey(secret.group(2))) {
            respond(exchange, 200, secretJson(secret.group(2), secrets.get(secret.group(2))));
        } else {
            respond(exchange, 404, """
                    {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}""");
        }
    }

    private static String secretJson(String name, Map<String, String> data) {
        String encoded = data.entrySet().stream()
                .map(entry -> "\"%s\":\"%s\""
                        .formatted(
                                entry.getKey(),
                                Base64.getEncoder()
                                        .encodeToString(entry.getValue().getBytes(StandardCharsets.UTF_8))))
                .collect(Collectors.joining(","));
        return """
                {"kind":"Secret","apiVersion":"v1","metadata":{"name":"%s","namespace":"%s"},"data":{%s}}""".formatted(name, RenderedChart.NAMESPACE, encoded);
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
