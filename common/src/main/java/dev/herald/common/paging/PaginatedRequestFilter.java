package dev.herald.common.paging;

import dev.herald.common.api.ApiException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import java.util.List;
import java.util.Map;

/**
 * Refuses a list's query parameters sent without a value ({@code limit=}, {@code cursor=}, {@code platform=},
 * {@code profile_id=}, ...), except {@code q}, whose empty value filters nothing (the empty substring). RESTEasy
 * Reactive injects an empty query value as null, which the resource cannot tell from an absent one; without this check
 * {@code cursor=} would silently be the first page, {@code limit=} the default size and {@code platform=} no filter
 * at all, where the contract (and {@code GET /logs}, parsed by hand) says 400.
 */
@Provider
@Paginated
@Priority(Priorities.USER)
public class PaginatedRequestFilter implements ContainerRequestFilter {
    /** The one parameter whose empty value means something: a substring every name contains. */
    private static final String SEARCH = "q";

    @Override
    public void filter(ContainerRequestContext request) {
        MultivaluedMap<String, String> query = request.getUriInfo().getQueryParameters();
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            String name = parameter.getKey();
            if (SEARCH.equals(name) || parameter.getValue().stream().noneMatch(PaginatedRequestFilter::isEmpty)) {
                continue;
            }
            throw "limit".equals(name) || "cursor".equals(name)
                    ? PageRequest.emptyParameter(name)
                    : ApiException.invalidParameter(
                            name, name + " must not be empty; leave it out not to filter by it.");
        }
    }

    private static boolean isEmpty(String value) {
        return value == null || value.isEmpty();
    }
}
