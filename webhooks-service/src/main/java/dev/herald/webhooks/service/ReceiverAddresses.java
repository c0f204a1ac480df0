package dev.herald.webhooks.service;

import dev.herald.common.net.PublicAddresses;
import dev.herald.webhooks.config.WebhooksConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The SSRF guard: where a receiver URL may point. A URL must be absolute {@code https} with a host, no user
 * information and no fragment; its host must resolve, and <em>every</em> address it resolves to must be public
 * (not loopback, private, link-local, the cloud metadata address, CGNAT, unspecified, multicast, reserved or
 * documentation ranges, nor IPv6 forms that embed such an IPv4 address). The check runs when an endpoint is
 * created and again before every attempt (DNS can change), and the attempt connects to the very address that
 * was checked, so a name that re-resolves elsewhere in between (DNS rebinding) reaches nothing new.
 * {@code herald.webhooks.allow-private-urls} (local runs only) lifts the address rules and admits plain http.
 * Resolving a name blocks, so it runs on a worker thread, never on the event loop (a literal address needs no lookup).
 */
@ApplicationScoped
public class ReceiverAddresses {
    public static final int MAX_URL_LENGTH = 2048;

    private final Vertx vertx;
    private final boolean allowPrivate;
    private final Resolver resolver;

    @Inject
    public ReceiverAddresses(Vertx vertx, WebhooksConfig config) {
        this(vertx, config.allowPrivateUrls(), InetAddress::getAllByName);
    }

    ReceiverAddresses(Vertx vertx, boolean allowPrivate, Resolver resolver) {
        this.vertx = vertx;
        this.allowPrivate = allowPrivate;
        this.resolver = resolver;
    }

    /** Turns a host name into its addresses (the JDK's resolver, or a test's). */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** Where an attempt goes: the URL's parts and the checked address to connect to. */
    public record Receiver(String host, int port, boolean ssl, String requestUri, InetAddress address) {
    }

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
        try {
            parse(url);
            return Optional.empty();
        } catch (RefusedUrl e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * Resolves and checks {@code url}; fails with {@link RefusedUrl} when it may not be used. The item names the
     * address to connect to.
     */
    public Uni<Receiver> vet(String url) {
        URI uri;
        try {
            uri = parse(url);
        } catch (RefusedUrl e) {
            return Uni.createFrom().failure(e);
        }
        String host = bareHost(uri.getHost());
        boolean ssl = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() != -1 ? uri.getPort() : ssl ? 443 : 80;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String requestUri = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        if (PublicAddresses.isLiteral(host)) {
            // No lookup: the JDK parses a literal address without asking DNS, so no worker thread is needed.
            return Uni.createFrom().item(() -> check(host, port, ssl, requestUri));
        }
        return vertx.executeBlocking(Uni.createFrom().item(() -> check(host, port, ssl, requestUri)), false);
    }

    private Receiver check(String host, int port, boolean ssl, String requestUri) {
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException e) {
            throw new RefusedUrl("must have a host that resolves (" + host + " does not)", false);
        }
        if (addresses == null || addresses.length == 0) {
            throw new RefusedUrl("must have a host that resolves (" + host + " does not)", false);
        }
        if (!allowPrivate) {
            Optional<InetAddress> refused = Arrays.stream(addresses).filter(address -> !PublicAddresses.isPublic(address)).findFirst();
            if (refused.isPresent()) {
                throw new RefusedUrl("must resolve to public addresses only (" + host + " resolves to "
                        + refused.get().getHostAddress() + ")", false);
            }
        }
        return new Receiver(host, port, ssl, requestUri, addresses[0]);
    }

    private URI parse(String url) {
        if (url == null || url.isEmpty()) {
            throw new RefusedUrl("must be an absolute https URL", true);
        }
        if (url.length() > MAX_URL_LENGTH) {
            throw new RefusedUrl("must be at most " + MAX_URL_LENGTH + " characters", true);
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new RefusedUrl(schemeRule(), true);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || uri.isOpaque() || !(scheme.equals("https") || (allowPrivate && scheme.equals("http")))) {
            throw new RefusedUrl(schemeRule(), true);
        }
        if (uri.getRawUserInfo() != null || (uri.getRawAuthority() != null && uri.getRawAuthority().contains("@"))) {
            throw new RefusedUrl("must not contain user information (user:password@)", true);
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new RefusedUrl("must have a valid host name", true);
        }
        if (uri.getRawFragment() != null) {
            throw new RefusedUrl("must not contain a fragment (#...)", true);
        }
        return uri;
    }

    private String schemeRule() {
        return allowPrivate ? "must be an absolute https (or, locally, http) URL" : "must be an absolute https URL";
    }

    private static String bareHost(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
