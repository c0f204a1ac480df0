package dev.herald.sdk;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscribers;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The JDK client the generated API classes send through, sending a request again as {@link RetryPolicy} says. The
 * generated code calls only {@link #send}; the asynchronous methods are passed through unretried. A response that
 * will be retried is read to nothing, so only the last one reaches the caller (and its error handling).
 */
final class RetryingHttpClient extends HttpClient {
    private final HttpClient delegate;
    private final RetryPolicy policy;
    private final Clock clock;

    RetryingHttpClient(HttpClient delegate, RetryPolicy policy, Clock clock) {
        this.delegate = delegate;
        this.policy = policy;
        this.clock = clock;
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler)
            throws IOException, InterruptedException {
        for (int retry = 1; ; retry++) {
            int thisRetry = retry;
            HttpResponse<T> response = delegate.send(
                    request,
                    info -> willRetry(thisRetry, info.statusCode(), info.headers())
                                    .isPresent()
                            ? BodySubscribers.replacing(null)
                            : handler.apply(info));
            Optional<Duration> delay = willRetry(retry, response.statusCode(), response.headers());
            if (delay.isEmpty()) {
                return response;
            }
            Thread.sleep(delay.get().toMillis());
        }
    }

    private Optional<Duration> willRetry(int retry, int status, HttpHeaders headers) {
        return policy.delayBeforeRetry(
                retry, status, headers.firstValue("Retry-After").orElse(null), clock);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler) {
        return delegate.sendAsync(request, handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
            HttpRequest request, BodyHandler<T> handler, PushPromiseHandler<T> pushPromiseHandler) {
        return delegate.sendAsync(request, handler, pushPromiseHandler);
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return delegate.authenticator();
    }

    @Override
    public Version version() {
        return delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
        return delegate.executor();
    }
}
