package dev.herald.common.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.validation.StorableText;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Refuses path and query values that PostgreSQL cannot take as sent ({@link StorableText}), before a resource uses
 * them in a query: a NUL in an id or a filter made the statement fail and the request answer 500. No id contains
 * such a character, so a path value is simply not found; a query value is a bad parameter. HTML pages (the hosted
 * connect page) are left to answer with their own pages: they hash or format-check what they look up.
 */
public class StorableTextRequestFilter {
    @ServerRequestFilter(priority = Priorities.USER)
    public void refuseUnstorableText(ContainerRequestContext request, ResourceInfo resource) {
        if (producesHtml(resource)) {
            return;
        }
        for (Map.Entry<String, List<String>> path :
                request.getUriInfo().getPathParameters().entrySet()) {
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

    private static boolean producesHtml(ResourceInfo resource) {
        if (resource == null || resource.getResourceMethod() == null) {
            return false;
        }
        Produces produces = resource.getResourceMethod().getAnnotation(Produces.class);
        if (produces == null) {
            produces = resource.getResourceClass().getAnnotation(Produces.class);
        }
        return produces != null && Arrays.asList(produces.value()).contains(MediaType.TEXT_HTML);
    }
}
