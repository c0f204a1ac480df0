package dev.herald.accounts.rest;

import dev.herald.accounts.service.BrandingService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code /connect/logos/<sha256>}: the brandings' logos, for the hosted page's {@code <img>} (same origin, through the
 * gateway's {@code /connect/**} like the page). A URL names one image for good, so browsers and proxies may keep it a
 * year without asking again; its type is the one its bytes were checked to be, never sniffed again.
 */
@Cancellable(false)
@Path(BrandingService.LOGO_PATH + "{sha256}")
public class HostedLogoResource {
    private static final Pattern SHA256 = Pattern.compile("^[0-9a-f]{64}$");

    private final BrandingService brandings;

    public HostedLogoResource(BrandingService brandings) {
        this.brandings = brandings;
    }

    @GET
    public Uni<Response> logo(@PathParam("sha256") String sha256) {
        if (!SHA256.matcher(sha256).matches()) {
            return Uni.createFrom().item(notFound());
        }
        return brandings
                .logo(sha256)
                .map(logo -> logo == null
                        ? notFound()
                        : Response.ok(logo.bytes)
                                .type(logo.contentType)
                                .header("Cache-Control", "public, max-age=31536000, immutable")
                                .header("X-Content-Type-Options", "nosniff")
                                .header("Content-Security-Policy", "default-src 'none'; sandbox")
                                .header("Cross-Origin-Resource-Policy", "same-origin")
                                .build());
    }

    private static Response notFound() {
        return Response.status(404)
                .type("text/plain;charset=UTF-8")
                .header("X-Content-Type-Options", "nosniff")
                .header("Cache-Control", "no-store")
                .entity("No such logo.")
                .build();
    }
}
