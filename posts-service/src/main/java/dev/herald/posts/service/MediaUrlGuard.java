package dev.herald.posts.service;

import dev.herald.common.api.FieldError;
import dev.herald.common.net.PublicAddresses;
import dev.herald.posts.config.MediaConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The SSRF guard for each media item's {@code url} at acceptance (OWASP API7): Herald fetches media on the customer's
 * behalf, so a URL whose host is, or resolves to, a non-public address (loopback, private ranges, link-local and
 * the cloud metadata address, IPv6 loopback and unique-local, ...: {@link PublicAddresses}) is refused with
 * {@code 422 validation_failed}. A host whose last label is numeric is an IP address in some other notation
 * ({@code 2130706433}, {@code 0x7f.1}) that fetchers read differently: only the dotted-quad form is accepted.
 * A name that does not resolve now is accepted: the address is what it resolves to at transfer time, which the
 * fetcher must check again and connect to (DNS can change between acceptance and delivery).
 * Resolving blocks, so it runs on a worker thread.
 */
@ApplicationScoped
public class MediaUrlGuard {
    private static final Pattern NUMERIC_LABEL = Pattern.compile("^(0x[0-9a-f]*|[0-9]+)$");
    private static final Pattern CANONICAL_QUAD = Pattern.compile(
            "^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$");

    private final Vertx vertx;
    private final Resolver resolver;
    private final boolean allowPrivateUrls;

    @Inject
    public MediaUrlGuard(Vertx vertx, MediaConfig config) {
        this(vertx, InetAddress::getAllByName, config.allowPrivateUrls());
    }

    MediaUrlGuard(Vertx vertx, Resolver resolver) {
        this(vertx, resolver, false);
    }

    MediaUrlGuard(Vertx vertx, Resolver resolver, boolean allowPrivateUrls) {
        this.vertx = vertx;
        this.resolver = resolver;
        this.allowPrivateUrls = allowPrivateUrls;
    }

    /** Local runs ({@link MediaConfig#allowPrivateUrls}): http and non-public addresses are accepted. */
    public boolean allowsPrivateUrls() {
        return allowPrivateUrls;
    }

    /** Turns a host name into its addresses (the JDK's resolver, or a test's). */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** The draft, with an error added for each media URL that points at a non-public address. */
    public Uni<PostDraft> vet(PostDraft draft) {
        if (draft.media() == null) {
            return Uni.createFrom().item(draft);
        }
        List<Uni<Optional<FieldError>>> checks = new ArrayList<>();
        for (int i = 0; i < draft.media().size(); i++) {
            checks.add(check(
                    draft.mediaField(i) + ".url", draft.media().items().get(i).url()));
        }
        return Uni.join()
                .all(checks)
                .andFailFast()
                .map(problems -> draft.withErrors(
                        problems.stream().flatMap(Optional::stream).toList()));
    }

    private Uni<Optional<FieldError>> check(String field, String url) {
        String host;
        try {
            host = new URI(url).getHost();
        } catch (URISyntaxException e) {
            return Uni.createFrom().item(Optional.empty()); // the reader refused its form already
        }
        if (host == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        String bare = (host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host)
                .toLowerCase(Locale.ROOT);
        String[] labels = bare.split("\\.");
        if (bare.indexOf(':') < 0
                && labels.length > 0
                && NUMERIC_LABEL.matcher(labels[labels.length - 1]).matches()
                && !CANONICAL_QUAD.matcher(bare).matches()) {
            // 2130706433, 0x7f000001 or 012.0.0.1: Java reads them as a name or as 12.0.0.1, curl as 127.0.0.1 or
            // 10.0.0.1. Refuse what readers disagree on.
            return Uni.createFrom()
                    .item(Optional.of(new FieldError(
                            field,
                            "invalid_format",
                            field + " must name its host or give an IPv4 address as four decimal numbers (" + bare
                                    + ").")));
        }
        if (allowPrivateUrls) {
            // Local runs: media on the developer's own machine; the notation rule above still holds.
            return Uni.createFrom().item(Optional.empty());
        }
        if (PublicAddresses.isLiteral(bare)) {
            // No lookup: the JDK parses a literal address without asking DNS.
            return Uni.createFrom().item(() -> problem(field, bare, literal(bare)));
        }
        return vertx.executeBlocking(Uni.createFrom().item(() -> problem(field, bare, lookup(bare))), false);
    }

    private static InetAddress[] literal(String host) {
        try {
            return new InetAddress[] {InetAddress.getByName(host)};
        } catch (UnknownHostException e) {
            return new InetAddress[0]; // not a valid address after all: nothing to refuse here
        }
    }

    private InetAddress[] lookup(String host) {
        try {
            InetAddress[] addresses = resolver.resolve(host);
            return addresses == null ? new InetAddress[0] : addresses;
        } catch (UnknownHostException e) {
            return new InetAddress[0];
        }
    }

    private static Optional<FieldError> problem(String field, String host, InetAddress[] addresses) {
        return Arrays.stream(addresses)
                .filter(address -> !PublicAddresses.isPublic(address))
                .findFirst()
                .map(refused -> new FieldError(
                        field,
                        "invalid_value",
                        field + " must resolve to public addresses only (" + host + " resolves to "
                                + refused.getHostAddress() + ")."));
    }
}
