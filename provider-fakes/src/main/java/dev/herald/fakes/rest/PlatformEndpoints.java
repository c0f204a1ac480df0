package dev.herald.fakes.rest;

import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.service.FakeProviders;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every fake platform's endpoints: {@code /<platform>/<the platform's own path>}. Herald's configurable base URLs
 * point at these prefixes (docs/local-runtime.md lists them); each platform's fake routes the rest itself, so paths
 * such as TikTok's trailing slashes and Graph's {@code /{node-id}/{edge}} keep their exact shape.
 */
@Path("/{platform: [a-z]+}")
public class PlatformEndpoints {
    private final FakeProviders providers;

    public PlatformEndpoints(FakeProviders providers) {
        this.providers = providers;
    }

    @GET
    @Path("/{path: .*}")
    public Uni<Response> get(@PathParam("platform") String platform, @Context UriInfo uri, @Context HttpHeaders headers) {
        return handle("GET", platform, uri, headers, null);
    }

    @DELETE
    @Path("/{path: .*}")
    public Uni<Response> delete(@PathParam("platform") String platform, @Context UriInfo uri, @Context HttpHeaders headers) {
        return handle("DELETE", platform, uri, headers, null);
    }

    @POST
    @Path("/{path: .*}")
    public Uni<Response> post(@PathParam("platform") String platform, @Context UriInfo uri, @Context HttpHeaders headers,
                              String body) {
        return handle("POST", platform, uri, headers, body);
    }

    @PUT
    @Path("/{path: .*}")
    public Uni<Response> put(@PathParam("platform") String platform, @Context UriInfo uri, @Context HttpHeaders headers,
                             String body) {
        return handle("PUT", platform, uri, headers, body);
    }

    private Uni<Response> handle(String method, String platform, UriInfo uri, HttpHeaders headers, String body) {
        if (!providers.knows(platform)) {
            return Uni.createFrom().item(Response.status(404).type(MediaType.APPLICATION_JSON)
                    .entity("{\"message\":\"no fake platform '" + platform + "'\"}").build());
        }
        String path = uri.getPath().substring(platform.length() + 1);
        Map<String, List<String>> query = new LinkedHashMap<>();
        uri.getQueryParameters().forEach((name, values) -> query.put(name, List.copyOf(values)));
        Map<String, List<String>> headerValues = new LinkedHashMap<>();
        headers.getRequestHeaders().forEach((name, values) -> headerValues.put(name.toLowerCase(), List.copyOf(values)));
        FakeRequest request = new FakeRequest(platform, method, path.isEmpty() ? "/" : path, Map.copyOf(query),
                uri.getRequestUri().getRawQuery(), headerValues, body == null || body.isEmpty() ? null : body, null);
        return providers.handle(request).map(PlatformEndpoints::response);
    }

    private static Response response(FakeResponse answer) {
        Response.ResponseBuilder response = Response.status(answer.status());
        answer.headers().forEach(response::header);
        if (answer.body() != null) {
            response.type(answer.contentType()).entity(answer.body());
        }
        return response.build();
    }
}
