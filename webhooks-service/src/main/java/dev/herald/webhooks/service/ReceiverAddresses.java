package dev.herald.webhooks.service;

import dev.herald.common.net.PublicUrls;
import dev.herald.webhooks.config.WebhooksConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * The SSRF guard for receiver URLs: {@link PublicUrls}' rules (shared with delivery-worker's media sources). The
 * check runs when an endpoint is created and again before every attempt (DNS can change), and the attempt connects to
 * the very address that was checked. {@code herald.webhooks.allow-private-urls} (local runs only) lifts the address
 * rules and admits plain http. Resolving a name blocks, so it runs on a worker thread, never on the event loop (a
 * literal address needs no lookup).
 */
@ApplicationScoped
public class ReceiverAddresses {
    public static final int MAX_URL_LENGTH = PublicUrls.MAX_URL_LENGTH;

    private final Vertx vertx;
    private final PublicUrls urls;

    @Inject
    public ReceiverAddresses(Vertx vertx, WebhooksConfig config) {
        this(vertx, config.allowPrivateUrls(), InetAddress::getAllByName);
    }

    ReceiverAddresses(Vertx vertx, boolean allowPrivate, Resolver resolver) {
        this.vertx = vertx;
        this.urls = new PublicUrls(allowPrivate, resolver::resolve);
    }

    /** Turns a host name into its addresses (the JDK's resolver, or a test's). */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** Where an attempt goes: the URL's parts and the checked address to connect to. */
    public record Receiver(String host, int port, boolean ssl, String requestUri, InetAddress address) {}

    /** A URL that may not be used; the message is the end of a sentence about {@code url} ("must ..."). */
    public static final class RefusedUrl extends RuntimeException {
        private final boolean format;

        RefusedUrl(String message, boolean format) {
            super(message, null, false, false);
            this.format = format;
        }

        /** True when the URL's form is wrong, false when its host does not resolve to an acceptable address. */
        public boolean format() {
            return format;
        }
    }

    /** What is wrong with the form of {@code url} ("must ..."), or empty when the form is acceptable. */
    public Optional<String> formProblem(String url) {
        return urls.formProblem(url);
    }

    /**
     * Resolves and checks {@code url}; fails with {@link RefusedUrl} when it may not be used. The item names the
     * address to connect to.
     */
    public Uni<Receiver> vet(String url) {
        Uni<Receiver> checked = Uni.createFrom().item(() -> check(url));
        // No lookup for a literal address (or a refused form): no worker thread is needed.
        return urls.checksWithoutLookup(url) ? checked : vertx.executeBlocking(checked, false);
    }

    private Receiver check(String url) {
        try {
            PublicUrls.Target target = urls.check(url);
            return new Receiver(target.host(), target.port(), target.ssl(), target.requestUri(), target.address());
        } catch (PublicUrls.RefusedUrl refused) {
            throw new RefusedUrl(refused.getMessage(), refused.problem() == PublicUrls.Problem.FORM);
        }
    }
}
