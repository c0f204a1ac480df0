package dev.herald.accounts.provider.http;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.common.net.PlatformAnswerLimit;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.MultiMap;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.HttpRequest;
import io.vertx.mutiny.ext.web.client.HttpResponse;
import io.vertx.mutiny.ext.web.client.WebClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Calls provider endpoints on Quarkus's Vert.x without blocking, each call bounded by the configured deadline.
 * A call that cannot complete (connection refused, reset, deadline) fails with a retryable
 * {@link ProviderException} {@code provider_unreachable}; an answer of any status is handed back for the
 * platform to interpret. Nothing here logs requests or bodies: both carry tokens and client secrets.
 */
@ApplicationScoped
public class ProviderHttpClient {
    private final WebClient client;
    private final Duration deadline;

    @Inject
    public ProviderHttpClient(
            Vertx vertx,
            ProvidersConfig config,
            @ConfigProperty(name = PlatformAnswerLimit.MAX_BYTES_KEY, defaultValue = "1048576") long maxAnswerBytes) {
        this(cappedClient(vertx, config, maxAnswerBytes), config.requestTimeout());
    }

    /**
     * Redirects are not followed (a provider's answer must not send Herald elsewhere), and every answer is capped as
     * it arrives ({@link PlatformAnswerLimit}): WebClient would otherwise read a body of any size into memory.
     */
    private static WebClient cappedClient(Vertx vertx, ProvidersConfig config, long maxAnswerBytes) {
        HttpClient http = vertx.getDelegate().createHttpClient(new HttpClientOptions().setConnectTimeout((int)
                        config.connectTimeout().toMillis()));
        PlatformAnswerLimit.install(http, maxAnswerBytes);
        return WebClient.wrap(
                io.vertx.mutiny.core.http.HttpClient.newInstance(http),
                new WebClientOptions().setFollowRedirects(false).setUserAgent("Herald"));
    }

    ProviderHttpClient(WebClient client, Duration deadline) {
        this.client = client;
        this.deadline = deadline;
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /** POSTs an application/x-www-form-urlencoded body. */
    public Uni<ProviderResponse> postForm(String url, Map<String, String> form, Map<String, String> headers) {
        MultiMap body = MultiMap.caseInsensitiveMultiMap();
        form.forEach((name, value) -> {
            if (value != null) {
                body.add(name, value);
            }
        });
        return send(request(HttpMethod.POST, url, Map.of(), headers).sendForm(body, StandardCharsets.UTF_8.name()));
    }

    public Uni<ProviderResponse> postJson(String url, JsonObject json, Map<String, String> headers) {
        return send(request(HttpMethod.POST, url, Map.of(), headers).sendJsonObject(json));
    }

    public Uni<ProviderResponse> get(String url, Map<String, String> query, Map<String, String> headers) {
        return send(request(HttpMethod.GET, url, query, headers).send());
    }

    public Uni<ProviderResponse> delete(String url, Map<String, String> query, Map<String, String> headers) {
        return send(request(HttpMethod.DELETE, url, query, headers).send());
    }

    public static Map<String, String> bearer(String accessToken) {
        return Map.of("Authorization", "Bearer " + accessToken);
    }

    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private HttpRequest<Buffer> request(
            HttpMethod method, String url, Map<String, String> query, Map<String, String> headers) {
        HttpRequest<Buffer> request = client.requestAbs(method, url).timeout(deadline.toMillis());
        query.forEach((name, value) -> {
            if (value != null) {
                request.addQueryParam(name, value);
            }
        });
        request.putHeader("Accept", "application/json");
        headers.forEach(request::putHeader);
        return request;
    }

    private Uni<ProviderResponse> send(Uni<HttpResponse<Buffer>> call) {
        return call.ifNoItem()
                .after(deadline)
                .failWith(TimeoutException::new)
                .map(ProviderHttpClient::answer)
                .onFailure(failure -> !(failure instanceof ProviderException))
                .transform(failure -> new ProviderException(
                        "provider_unreachable",
                        "the provider did not answer: " + failure.getClass().getSimpleName(),
                        false,
                        true));
    }

    /**
     * A successful answer over the cap, or whose body is not JSON, is the provider's failure, retryable (it may answer
     * properly later); its body is never kept. Refusals are read by their status and platform as they are.
     */
    static ProviderResponse answer(HttpResponse<Buffer> response) {
        int status = response.statusCode();
        String capped = response.getHeader(PlatformAnswerLimit.TOO_LARGE_HEADER);
        if (capped != null && status / 100 == 2) {
            throw new ProviderException(
                    "answer_too_large",
                    "the provider's answer was over the " + capped + "-byte limit and was not read",
                    false,
                    true);
        }
        String body = response.bodyAsString();
        if (status / 100 == 2 && body != null && !body.isBlank()) {
            try {
                Json.decodeValue(body);
            } catch (DecodeException e) {
                throw new ProviderException("malformed_response", "the provider's answer was not JSON", false, true);
            }
        }
        return new ProviderResponse(status, body);
    }
}
