package dev.herald.accounts.rest;

import dev.herald.accounts.config.ConnectConfig;
import dev.herald.accounts.service.ConnectBrowserBinding;
import io.quarkus.qute.TemplateInstance;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Every hosted page answer carries the same protections: a Content-Security-Policy that allows only the page's
 * own nonce-tagged style sheet (and script, when it may be framed) and framing only by the session's
 * {@code embed_origin} (none when it has none), no MIME sniffing, no referrer (the link's token is in the URL), and no
 * caching anywhere.
 */
@ApplicationScoped
public class HostedPageResponses {
    private static final Duration COOKIE_GRACE = Duration.ofHours(1);
    private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private final ConnectBrowserBinding binding;
    private final boolean secureCookies;
    private final String publicBase;

    public HostedPageResponses(ConnectBrowserBinding binding, ConnectConfig config) {
        this.binding = binding;
        URI publicUrl = config.publicUrl();
        this.publicBase = publicUrl.toString().replaceAll("/+$", "");
        // Browsers drop Secure cookies on plain http, which is only ever a developer's own machine.
        this.secureCookies = "https".equalsIgnoreCase(publicUrl.getScheme())
                || publicUrl.getHost() == null
                || !LOOPBACK_HOSTS.contains(publicUrl.getHost().toLowerCase(Locale.ROOT));
    }

    /** A page rendered with a fresh CSP nonce (the argument of {@code template}). */
    public Response.ResponseBuilder page(int status, String embedOrigin, Function<String, TemplateInstance> template) {
        String nonce = binding.styleNonce();
        return secured(Response.status(status), embedOrigin, nonce)
                .type("text/html;charset=UTF-8")
                .entity(template.apply(nonce).render());
    }

    /**
     * A 303 to another page (or to the platform, or the customer's redirect URL), with the same headers. A page of
     * our own is named under the public URL: JAX-RS would resolve a relative location against the request this
     * service received, which is its internal address behind the gateway, where no browser can follow.
     */
    public Response.ResponseBuilder seeOther(URI location, String embedOrigin) {
        return secured(Response.seeOther(publicLocation(location)), embedOrigin, binding.styleNonce());
    }

    /** {@code location} as a browser must follow it: absolute ones as they are, our own paths under the public URL. */
    URI publicLocation(URI location) {
        return location.isAbsolute() ? location : URI.create(publicBase + location.toString());
    }

    /**
     * The cookie binding this browser to a session, kept an hour past the session's expiry so that a page left
     * open is told the link expired rather than that it is in the wrong browser.
     */
    public NewCookie bindingCookie(String value, Instant expiresAt, Instant now) {
        long maxAge = Math.max(1, Duration.between(now, expiresAt).toSeconds()) + COOKIE_GRACE.toSeconds();
        return new NewCookie.Builder(ConnectBrowserBinding.COOKIE)
                .value(value)
                .path("/connect")
                .httpOnly(true)
                .secure(secureCookies)
                .sameSite(NewCookie.SameSite.LAX)
                .maxAge((int) Math.min(Integer.MAX_VALUE, maxAge))
                .build();
    }

    /**
     * Scripts only on a page that may be framed, and only its own nonce-tagged one: it tells the embedding page the
     * page's height and, at the end, that the session completed (postMessage to {@code embedOrigin} exactly).
     */
    static String contentSecurityPolicy(String embedOrigin, String nonce) {
        return "default-src 'none'; style-src 'nonce-" + nonce + "'; "
                + (embedOrigin == null ? "" : "script-src 'nonce-" + nonce + "'; ")
                + "img-src 'self' data:; base-uri 'none'; "
                + "frame-ancestors " + (embedOrigin == null ? "'none'" : embedOrigin);
    }

    private static Response.ResponseBuilder secured(
            Response.ResponseBuilder response, String embedOrigin, String nonce) {
        return response.header("Content-Security-Policy", contentSecurityPolicy(embedOrigin, nonce))
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer")
                .header("Cache-Control", "no-store")
                .header("Pragma", "no-cache");
    }
}
