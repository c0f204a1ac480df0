package dev.herald.accounts.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.accounts.service.ConnectSessionRequest;
import dev.herald.accounts.service.ConnectSessionService;
import dev.herald.accounts.service.HostedPageLocales;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.net.PublicUrls;
import dev.herald.common.validation.FieldValue;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.ConnectSession;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.Cancellable;

/** {@code /connect-sessions}: hosted connection links for a customer's end users. */
@Cancellable(false)
@Path("/connect-sessions")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class ConnectSessionResource {
    static final long DEFAULT_EXPIRES_IN = ConnectSessionService.DEFAULT_TTL.toSeconds();
    static final long MIN_EXPIRES_IN = 60;
    static final long MAX_EXPIRES_IN = 7 * 24 * 3600;
    static final int MAX_URL_LENGTH = 2048;
    private static final Pattern PROFILE_ID = Pattern.compile("^prf_[a-f0-9]{24}$");
    private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]");

    private final ConnectSessionService sessions;
    private final Caller caller;

    public ConnectSessionResource(ConnectSessionService sessions, Caller caller) {
        this.sessions = sessions;
        this.caller = caller;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(JsonNode json) {
        JsonBody body = JsonBody.of(
                json,
                Set.of(
                        "profile_id",
                        "platforms",
                        "redirect_url",
                        "embed_origin",
                        "display_name",
                        "expires_in",
                        "locale"));
        FieldValue<String> profileId = body.string("profile_id")
                .required()
                .matching(PROFILE_ID, "a profile id (prf_...)")
                .read();
        List<Platform> platforms = readPlatforms(body, json.get("platforms"));
        FieldValue<String> redirectUrl =
                body.string("redirect_url").nullable().length(1, MAX_URL_LENGTH).read();
        FieldValue<String> embedOrigin =
                body.string("embed_origin").nullable().length(1, MAX_URL_LENGTH).read();
        String redirect = redirectUrl.orNull() == null ? null : checkRedirectUrl(body, redirectUrl.orNull());
        String origin = embedOrigin.orNull() == null ? null : checkOrigin(body, embedOrigin.orNull());
        // The page's name for the customer instead of its branding's: the same rules as the branding's own.
        String displayName = BrandingFields.displayName(body, "display_name");
        long expiresIn = readExpiresIn(body, json.get("expires_in"));
        FieldValue<String> localeTag = body.string("locale").nullable().read();
        String locale = localeTag.orNull() == null ? null : checkLocale(body, localeTag.orNull());
        body.validate();
        ConnectSessionRequest request = new ConnectSessionRequest(
                profileId.orNull(), platforms, redirect, origin, displayName, Duration.ofSeconds(expiresIn), locale);
        return sessions.create(caller.workspaceId(), caller.mode(), request)
                .map(session -> Response.status(Response.Status.CREATED)
                        .entity(DataEnvelope.of(session))
                        .build());
    }

    @GET
    @Path("/{id}")
    public Uni<DataEnvelope<ConnectSession>> get(@PathParam("id") String id) {
        return sessions.get(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    /** Revokes the link: nothing more can be authorized through it; accounts it connected stay connected. */
    @DELETE
    @Path("/{id}")
    public Uni<DataEnvelope<ConnectSession>> revoke(@PathParam("id") String id) {
        return sessions.revoke(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    /** Absent or null: every platform. Otherwise a non-empty array of distinct platform names. */
    private static List<Platform> readPlatforms(JsonBody body, JsonNode value) {
        if (value == null || value.isNull()) {
            return Arrays.asList(Platform.values());
        }
        if (!value.isArray()) {
            body.reject("platforms", "invalid_type", "platforms must be an array of platform names.");
            return List.of();
        }
        if (value.isEmpty()) {
            body.reject("platforms", "too_short", "platforms must name at least one platform.");
            return List.of();
        }
        List<Platform> platforms = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            JsonNode item = value.get(i);
            var platform =
                    item.isTextual() ? Platform.fromWire(item.textValue()) : java.util.Optional.<Platform>empty();
            if (platform.isEmpty()) {
                body.reject(
                        "platforms[" + i + "]",
                        "invalid_value",
                        "platforms[" + i + "] must be one of "
                                + String.join(
                                        ", ",
                                        Arrays.stream(Platform.values())
                                                .map(Platform::wireName)
                                                .toList()) + ".");
            } else if (platforms.contains(platform.get())) {
                body.reject(
                        "platforms[" + i + "]", "invalid_value", platform.get().wireName() + " is listed twice.");
            } else {
                platforms.add(platform.get());
            }
        }
        return platforms;
    }

    private static long readExpiresIn(JsonBody body, JsonNode value) {
        if (value == null || value.isNull()) {
            return DEFAULT_EXPIRES_IN;
        }
        if (!value.isIntegralNumber()) {
            body.reject("expires_in", "invalid_type", "expires_in must be an integer number of seconds.");
            return DEFAULT_EXPIRES_IN;
        }
        if (!value.canConvertToLong() || value.longValue() < MIN_EXPIRES_IN || value.longValue() > MAX_EXPIRES_IN) {
            body.reject(
                    "expires_in",
                    "invalid_value",
                    "expires_in must be from " + MIN_EXPIRES_IN + " to " + MAX_EXPIRES_IN + " seconds (7 days).");
            return DEFAULT_EXPIRES_IN;
        }
        return value.longValue();
    }

    /** An absolute HTTPS URL without a fragment; plain HTTP only to the customer's own machine (localhost). */
    private static String checkRedirectUrl(JsonBody body, String text) {
        URI uri = parse(text);
        if (uri == null
                || !uri.isAbsolute()
                || uri.getRawFragment() != null
                || uri.getHost() == null
                || uri.getRawUserInfo() != null
                || !allowedScheme(uri)
                || !PublicUrls.hasReachablePort(uri)) {
            body.reject(
                    "redirect_url",
                    "invalid_format",
                    "redirect_url must be an absolute https:// URL without a fragment, with a port from 1 to 65535 if any"
                            + " (http:// only for localhost).");
            return null;
        }
        return text;
    }

    /** An origin (scheme://host[:port]), HTTPS, or HTTP for localhost; answered lower-case as browsers compare it. */
    private static String checkOrigin(JsonBody body, String text) {
        URI uri = parse(text);
        boolean bare = uri != null
                && uri.isAbsolute()
                && uri.getHost() != null
                && uri.getRawUserInfo() == null
                && (uri.getRawPath() == null || uri.getRawPath().isEmpty())
                && uri.getRawQuery() == null
                && uri.getRawFragment() == null;
        if (!bare || !allowedScheme(uri) || !PublicUrls.hasReachablePort(uri)) {
            body.reject(
                    "embed_origin",
                    "invalid_format",
                    "embed_origin must be an origin like https://app.example.com[:port], the port from 1 to 65535"
                            + " (http:// only for localhost).");
            return null;
        }
        return text.toLowerCase(Locale.ROOT);
    }

    /** One of the page's languages, alone or as a BCP 47 tag's language ({@code pt-BR}); answered normalized. */
    private static String checkLocale(JsonBody body, String tag) {
        var normalized = HostedPageLocales.normalizedTag(tag);
        if (normalized.isEmpty()) {
            body.reject(
                    "locale",
                    "invalid_value",
                    "locale must be one of " + String.join(", ", HostedPageLocales.LANGUAGES)
                            + ", or a BCP 47 language tag whose language is one of them (de-AT, pt-BR).");
            return null;
        }
        return normalized.get();
    }

    private static boolean allowedScheme(URI uri) {
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        return scheme.equals("https")
                || (scheme.equals("http")
                        && LOOPBACK_HOSTS.contains(uri.getHost().toLowerCase(Locale.ROOT)));
    }

    private static URI parse(String text) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
