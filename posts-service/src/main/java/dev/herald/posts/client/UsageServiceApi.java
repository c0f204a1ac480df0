package dev.herald.posts.client;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** usage-service's reservations, as posts-service calls them. Answers are read by {@link UsageClient}. */
@RegisterRestClient(configKey = "usage-service")
@Path("/internal/reservations")
@Produces(MediaType.APPLICATION_JSON)
public interface UsageServiceApi {
    @POST
    @Path("/batch")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> reserveBatch(@HeaderParam("authorization") String bearer, String body);

    @POST
    @Path("/{id}/consume")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> consume(@HeaderParam("authorization") String bearer, @PathParam("id") String id, String body);

    @POST
    @Path("/{id}/release")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> release(@HeaderParam("authorization") String bearer, @PathParam("id") String id, String body);
}
