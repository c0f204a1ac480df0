package dev.herald.profiles.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.profiles.model.ProfileHoldKind;
import dev.herald.profiles.service.ProfileService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code /internal/profiles/{id}/holds/{kind}/{holder_id}}: other services say what belongs to a profile
 * ({@code PUT}, 204; 404 when the profile is not in the caller's workspace and mode) and when it stops
 * belonging ({@code DELETE}, 204). A held profile cannot be deleted ({@code 409 profile_not_empty}).
 */
@Cancellable(false)
@Path("/internal/profiles/{id}/holds/{kind}/{holderId}")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class ProfileHoldResource {
    static final Pattern HOLDER_ID = Pattern.compile("^[A-Za-z0-9_-]{1,100}$");

    private final ProfileService profiles;
    private final Caller caller;

    public ProfileHoldResource(ProfileService profiles, Caller caller) {
        this.profiles = profiles;
        this.caller = caller;
    }

    @PUT
    public Uni<Response> hold(
            @PathParam("id") String id, @PathParam("kind") String kind, @PathParam("holderId") String holderId) {
        return profiles.hold(caller.workspaceId(), caller.mode(), id, kind(kind), holder(holderId))
                .replaceWith(Response.noContent().build());
    }

    @DELETE
    public Uni<Response> release(
            @PathParam("id") String id, @PathParam("kind") String kind, @PathParam("holderId") String holderId) {
        return profiles.release(caller.workspaceId(), caller.mode(), id, kind(kind), holder(holderId))
                .replaceWith(Response.noContent().build());
    }

    private static ProfileHoldKind kind(String kind) {
        return ProfileHoldKind.fromColumn(kind).orElseThrow(() -> ApiException.notFound("hold kind"));
    }

    private static String holder(String holderId) {
        if (!HOLDER_ID.matcher(holderId).matches()) {
            throw ApiException.invalidParameter("holder_id", "holder_id must be 1 to 100 letters, digits, '_' or '-'.");
        }
        return holderId;
    }
}
