package dev.herald.common.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.validation.StorableText;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import java.util.List;
import java.util.Map;

/**
 * Refuses path and query values that PostgreSQL cannot take as sent ({@link StorableText}), before a resource uses
 * them in a query: a NUL in an id or a filter made the statement fail and the request answer 500. No id contains
 * such a character, so a path value is simply not found; a query value is a bad parameter.
 */
@Provider
@Priority(Priorities.USER)
public class StorableTextRequestFilter implements ContainerRequestFilter {
    @Override
    public void filter(ContainerRequestContext request) {
        for (Map.Entry<String, List<String>> path : request.getUriInfo().getPathParameters().entrySet()) {
            for (String value : path.getValue()) {
                if (!StorableText.isStorable(value)) {
                    throw ApiException.notFound("resource");
                }
            }
        }
        MultivaluedMap<String, String> query = request.getUriInfo().getQueryParameters();
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            String name = parameter.getKey();
            if (!StorableText.isStorable(name)) {
                throw ApiException.invalidParameter(name, StorableText.problem("A query parameter's name"));
            }
            for (String value : parameter.getValue()) {
                if (value != null && !StorableText.isStorable(value)) {
                    throw ApiException.invalidParameter(name, StorableText.problem(name));
                }
            }
        }
    }
}
