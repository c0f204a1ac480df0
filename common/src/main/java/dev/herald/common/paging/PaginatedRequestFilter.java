package dev.herald.common.paging;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import java.util.List;

/**
 * Refuses {@code limit=} and {@code cursor=} sent without a value. RESTEasy Reactive injects an empty query value
 * as null, which the resource cannot tell from an absent one; without this check {@code cursor=} would silently be
 * the first page and {@code limit=} the default size, where the contract (and {@code GET /logs}, parsed by hand)
 * says 400.
 */
@Provider
@Paginated
@Priority(Priorities.USER)
public class PaginatedRequestFilter implements ContainerRequestFilter {
    @Override
    public void filter(ContainerRequestContext request) {
        MultivaluedMap<String, String> query = request.getUriInfo().getQueryParameters();
        for (String name : List.of("limit", "cursor")) {
            if (query.containsKey(name) && isEmpty(query.getFirst(name))) {
                throw PageRequest.emptyParameter(name);
            }
        }
    }

    private static boolean isEmpty(String value) {
        return value == null || value.isEmpty();
    }
}
