package dev.herald.accounts.service;

import dev.herald.accounts.config.BrandingConfig;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.FieldError;
import dev.herald.common.net.PlatformAnswerLimit;
import dev.herald.common.net.PublicAddresses;
import dev.herald.common.net.PublicUrls;
import dev.herald.common.wire.Branding;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.tracing.TracingPolicy;
import io.vertx.mutiny.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Fetches a branding's logo once, when the branding is set, through the SSRF guard media and webhook receivers use
 * ({@link PublicUrls}: absolute https, every address the host resolves to public, the connection made to the address
 * checked), with no redirect followed and at most {@link Branding#MAX_LOGO_BYTES} read ({@link PlatformAnswerLimit}
 * drops a longer answer unread, as for platforms' answers). A logo that cannot be used is a {@code 422} on
 * {@code logo_url} with the media codes: {@code media_unreachable}, {@code media_unavailable},
 * {@code media_too_large}, {@code media_type_unsupported}. {@code herald.branding.allow-private-urls} (local runs and
 * tests) admits plain http and non-public addresses.
 */
@ApplicationScoped
public class LogoFetcher {
    static final String FIELD = "logo_url";

    private final Vertx vertx;
    private final HttpClient client;
    private final PublicUrls urls;
    private final Duration timeout;

    @Inject
    public LogoFetcher(Vertx vertx, BrandingConfig config) {
        this.vertx = vertx;
        this.timeout = config.fetchTimeout();
        // A literal address is parsed, never looked up.
        this.urls = new PublicUrls(
                config.allowPrivateUrls(),
                host -> PublicAddresses.isLiteral(host)
                        ? new InetAddress[] {InetAddress.getByName(host)}
                        : InetAddress.getAllByName(host));
        this.client = vertx.getDelegate()
                .createHttpClient(new HttpClientOptions()
                        .setConnectTimeout((int) timeout.toMillis())
                        .setKeepAlive(false)
                        .setVerifyHost(true)
                        .setForceSni(true)
                        .setTryUseCompression(false)
                        // Customers' hosts: no traceparent (our trace ids) goes to them.
                        .setTracingPolicy(TracingPolicy.IGNORE));
        PlatformAnswerLimit.install(client, Branding.MAX_LOGO_BYTES);
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /** What is wrong with the URL's form ("must ..."), or empty; no lookup. */
    public Optional<String> formProblem(String url) {
        return urls.formProblem(url);
    }

    /** The logo at {@code url}; fails with a {@code 422} on {@code logo_url} when it cannot be used. */
    public Uni<LogoImage> fetch(String url) {
        Uni<PublicUrls.Target> checked = Uni.createFrom().item(() -> check(url));
        // Resolving a name blocks: on a worker thread, never the event loop.
        Uni<PublicUrls.Target> target = urls.checksWithoutLookup(url) ? checked : vertx.executeBlocking(checked, false);
        return target.flatMap(this::get)
                .ifNoItem()
                .after(timeout)
                .failWith(() -> refused(
                        "media_unreachable",
                        "logo_url could not be fetched within " + timeout.toSeconds() + " seconds."))
                .onFailure(failure -> !(failure instanceof ApiException))
                .transform(failure -> refused(
                        "media_unreachable",
                        "logo_url could not be fetched (" + failure.getClass().getSimpleName() + ")."));
    }

    private PublicUrls.Target check(String url) {
        try {
            return urls.check(url);
        } catch (PublicUrls.RefusedUrl refused) {
            String code = refused.problem() == PublicUrls.Problem.FORM ? "invalid_format" : "media_unreachable";
            throw refused(code, "logo_url " + refused.getMessage() + ".");
        }
    }

    private Uni<LogoImage> get(PublicUrls.Target target) {
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setHost(target.host())
                .setPort(target.port())
                .setSsl(target.ssl())
                .setURI(target.requestUri())
                .setFollowRedirects(false)
                .setIdleTimeout(timeout.toMillis())
                // The checked address, not a new lookup (DNS rebinding reaches nothing new).
                .setServer(SocketAddress.inetSocketAddress(
                        target.port(), target.address().getHostAddress()))
                .putHeader("Accept", "image/png, image/jpeg, image/webp")
                .putHeader("User-Agent", "Herald");
        var answer = client.request(options)
                .compose(request -> request.send()
                        .compose(response -> response.body()
                                .map(body -> image(
                                        response.statusCode(),
                                        response.getHeader(PlatformAnswerLimit.TOO_LARGE_HEADER),
                                        body.getBytes()))));
        return Uni.createFrom().completionStage(answer::toCompletionStage);
    }

    private static LogoImage image(int status, String tooLarge, byte[] bytes) {
        if (status != 200) {
            String redirect = status / 100 == 3 ? "; Herald follows no redirect: give the image's own URL" : "";
            throw refused("media_unavailable", "logo_url answered HTTP " + status + redirect + ".");
        }
        if (tooLarge != null) {
            throw refused(
                    "media_too_large",
                    "logo_url's image is larger than " + Branding.MAX_LOGO_BYTES / 1024 + " KiB; it was not kept.");
        }
        return LogoImage.sniff(bytes)
                .orElseThrow(() -> refused(
                        "media_type_unsupported",
                        "logo_url must be a PNG, JPEG or WebP image (its first bytes say it is none of them; SVG is"
                                + " not taken)."));
    }

    private static ApiException refused(String code, String message) {
        return ApiException.validationFailed(List.of(new FieldError(FIELD, code, message)));
    }
}
