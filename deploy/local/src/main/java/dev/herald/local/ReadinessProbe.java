package dev.herald.local;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Asks a service's {@code /q/health/ready} (SmallRye Health) whether it can take traffic, on the port it answers
 * Quarkus's endpoints on ({@link LocalSuiteConfig#managementPort}: the gateway's management port).
 */
public final class ReadinessProbe {
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    /** The answer to one probe: the HTTP status, or what went wrong on the way. */
    public record Result(int status, String problem) {
        public boolean ready() {
            return status == 200;
        }

        @Override
        public String toString() {
            return problem != null ? problem : "HTTP " + status;
        }
    }

    public CompletableFuture<Result> probe(int port) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                .timeout(Duration.ofSeconds(2))
                .GET()
                .build();
        return client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .thenApply(response -> new Result(response.statusCode(), null))
                .exceptionally(failure -> new Result(-1, describe(failure)));
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
        if (cause instanceof java.net.ConnectException) {
            return "connection refused";
        }
        if (cause instanceof java.net.http.HttpTimeoutException) {
            return "no answer within 2 s";
        }
        return cause instanceof IOException && cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
}
