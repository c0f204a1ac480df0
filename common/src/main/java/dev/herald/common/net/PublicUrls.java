package dev.herald.common.net;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The SSRF guard for URLs Herald connects to on a customer's behalf (webhook receivers, media sources): the URL must
 * be absolute {@code https} with a host, a port from 1 to 65535 if any, no user information and no fragment; its host must resolve, and
 * <em>every</em> address it resolves to must be public ({@link PublicAddresses}). The caller connects to the address
 * that was checked ({@link Target#address()}), so a name that re-resolves elsewhere in between (DNS rebinding)
 * reaches nothing new. {@code allowPrivate} (local runs only) lifts the address rules and admits plain http.
 * {@link #check} resolves names, which blocks: callers run it off the event loop (a literal address needs no lookup).
 */
public final class PublicUrls {
    public static final int MAX_URL_LENGTH = 2048;

    /** Turns a host name into its addresses (the JDK's resolver, or a test's). */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** Where to connect: the URL's parts and the checked address. */
    public record Target(String host, int port, boolean ssl, String requestUri, InetAddress address) {}

    /** Why a URL may not be used. */
    public enum Problem {
        /** The URL's form (scheme, host, user information, fragment, length). */
        FORM,
        /** Its host does not resolve. */
        UNRESOLVED,
        /** Its host resolves to a non-public address. */
        NOT_PUBLIC
    }

    /** A URL that may not be used; the message is the end of a sentence about the URL ("must ..."). */
    public static final class RefusedUrl extends RuntimeException {
        private final Problem problem;

        public RefusedUrl(String message, Problem problem) {
            super(message, null, false, false);
            this.problem = problem;
        }

        public Problem problem() {
            return problem;
        }
    }

    private final boolean allowPrivate;
    private final Resolver resolver;

    public PublicUrls(boolean allowPrivate, Resolver resolver) {
        this.allowPrivate = allowPrivate;
        this.resolver = resolver;
    }

    /** What is wrong with the form of {@code url} ("must ..."), or empty when the form is acceptable. No lookup. */
    public Optional<String> formProblem(String url) {
        try {
            parse(url);
            return Optional.empty();
        } catch (RefusedUrl e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Whether checking {@code url} needs no DNS lookup (its host is a literal address, or its form is refused). */
    public boolean checksWithoutLookup(String url) {
        try {
            return PublicAddresses.isLiteral(bareHost(parse(url).getHost()));
        } catch (RefusedUrl e) {
            return true;
        }
    }

    /** Checks the form, resolves the host and checks every address; throws {@link RefusedUrl}. May block (DNS). */
    public Target check(String url) {
        URI uri = parse(url);
        String host = bareHost(uri.getHost());
        boolean ssl = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() != -1 ? uri.getPort() : ssl ? 443 : 80;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String requestUri = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException e) {
            addresses = null;
        }
        if (addresses == null || addresses.length == 0) {
            throw new RefusedUrl("must have a host that resolves (" + host + " does not)", Problem.UNRESOLVED);
        }
        if (!allowPrivate) {
            Optional<InetAddress> refused = Arrays.stream(addresses)
                    .filter(address -> !PublicAddresses.isPublic(address))
                    .findFirst();
            if (refused.isPresent()) {
                throw new RefusedUrl(
                        "must resolve to public addresses only (" + host + " resolves to "
                                + refused.get().getHostAddress() + ")",
                        Problem.NOT_PUBLIC);
            }
        }
        return new Target(host, port, ssl, requestUri, addresses[0]);
    }

    private URI parse(String url) {
        if (url == null || url.isEmpty()) {
            throw new RefusedUrl("must be an absolute https URL", Problem.FORM);
        }
        if (url.length() > MAX_URL_LENGTH) {
            throw new RefusedUrl("must be at most " + MAX_URL_LENGTH + " characters", Problem.FORM);
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new RefusedUrl(schemeRule(), Problem.FORM);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute()
                || uri.isOpaque()
                || !(scheme.equals("https") || (allowPrivate && scheme.equals("http")))) {
            throw new RefusedUrl(schemeRule(), Problem.FORM);
        }
        if (uri.getRawUserInfo() != null
                || (uri.getRawAuthority() != null && uri.getRawAuthority().contains("@"))) {
            throw new RefusedUrl("must not contain user information (user:password@)", Problem.FORM);
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new RefusedUrl("must have a valid host name", Problem.FORM);
        }
        if (!hasReachablePort(uri)) {
            throw new RefusedUrl("must have a port from 1 to 65535", Problem.FORM);
        }
        if (uri.getRawFragment() != null) {
            throw new RefusedUrl("must not contain a fragment (#...)", Problem.FORM);
        }
        return uri;
    }

    /** No port, or one from 1 to 65535: java.net.URI takes any digits (":0", ":99999"). */
    public static boolean hasReachablePort(URI uri) {
        return uri.getPort() == -1 || (uri.getPort() >= 1 && uri.getPort() <= 65535);
    }

    private String schemeRule() {
        return allowPrivate ? "must be an absolute https (or, locally, http) URL" : "must be an absolute https URL";
    }

    private static String bareHost(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
