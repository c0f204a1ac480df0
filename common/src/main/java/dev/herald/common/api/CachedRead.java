package dev.herald.common.api;

import jakarta.ws.rs.core.Response;

/**
 * What a read of cached platform data answered, and whether the cache answered it alone: a service marks such an
 * answer with {@code x-herald-cache: hit} and the gateway refunds its API request (spec: cached reads are free).
 */
public record CachedRead<T>(T data, boolean cached) {
    public static final String HEADER = "x-herald-cache";

    /** {@code 200} with {@code entity}, marked as a cache hit when it was one. */
    public Response response(Object entity) {
        Response.ResponseBuilder response = Response.ok(entity);
        if (cached) {
            response.header(HEADER, "hit");
        }
        return response.build();
    }
}
