package dev.herald.gateway.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.wire.RequestLog;
import dev.herald.gateway.model.ApiKey;
import dev.herald.gateway.service.DashboardAccess;
import dev.herald.gateway.service.DashboardCaller;
import dev.herald.gateway.service.DashboardRefusal;
import dev.herald.gateway.service.RequestLogService;
import dev.herald.gateway.service.WorkspaceService;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The request logs of a workspace and mode ({@code GET /logs}, read in process), newest first, filtered and paged
 * as the API does, and one request in detail by its id: what a customer quotes in a support ticket.
 */
@Path("/dashboard/w/{workspace}/{mode}/logs")
@Produces(MediaType.TEXT_HTML)
public class DashboardLogsResource {
    static final List<String> METHODS = List.of("GET", "POST", "PATCH", "PUT", "DELETE");

    /** The filters as entered; their names are {@code GET /logs}'s query parameters. */
    public record LogFilters(String status, String method, String path, String keyId) {
        Map<String, String> query() {
            Map<String, String> query = new LinkedHashMap<>();
            put(query, "status", status);
            put(query, "method", method);
            put(query, "path", path);
            put(query, "key_id", keyId);
            return query;
        }

        private static void put(Map<String, String> query, String name, String value) {
            // An empty field (the form's "any") is no filter at all.
            if (value != null && !value.isEmpty()) {
                query.put(name, value);
            }
        }
    }

    /** A logged request with the key that made it (null for an OAuth credential or a key no longer listed). */
    public record LogRow(RequestLog log, ApiKey key) {}

    @CheckedTemplate(basePath = "dashboard/logs")
    static class Templates {
        static native TemplateInstance list(
                DashboardCaller caller,
                String section,
                List<LogRow> rows,
                List<ApiKey> keys,
                List<String> methods,
                LogFilters filters,
                Map<String, String> errors,
                String olderHref);

        static native TemplateInstance detail(DashboardCaller caller, String section, LogRow row);
    }

    private final DashboardAccess access;
    private final DashboardResponses responses;
    private final WorkspaceService workspaces;
    private final RequestLogService logs;

    public DashboardLogsResource(
            DashboardAccess access, DashboardResponses responses, WorkspaceService workspaces, RequestLogService logs) {
        this.access = access;
        this.responses = responses;
        this.workspaces = workspaces;
        this.logs = logs;
    }

    @GET
    public Uni<Response> list(
            @BeanParam WorkspacePage requested,
            @QueryParam("status") String status,
            @QueryParam("method") String method,
            @QueryParam("path") String path,
            @QueryParam("key_id") String keyId,
            @QueryParam("cursor") String cursor) {
        LogFilters filters = new LogFilters(status, method, path, keyId);
        return responses.respond(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> workspaces
                        .listApiKeys(caller.workspaceId(), caller.mode())
                        .flatMap(keys -> {
                            Map<String, String> query = filters.query();
                            LogFilters.put(query, "cursor", cursor);
                            return Uni.createFrom()
                                    .deferred(() -> logs.list(caller.workspaceId(), caller.mode(), query))
                                    .map(page -> DashboardResponses.page(
                                            200,
                                            Templates.list(
                                                    caller,
                                                    "logs",
                                                    rows(page.data(), keys),
                                                    keys,
                                                    METHODS,
                                                    filters,
                                                    Map.of(),
                                                    page.meta().hasMore()
                                                            ? olderHref(
                                                                    caller,
                                                                    filters,
                                                                    page.meta().nextCursor())
                                                            : null)))
                                    .onFailure(DashboardLogsResource::badFilter)
                                    .recoverWithItem(failure -> DashboardResponses.page(
                                            400,
                                            Templates.list(
                                                    caller,
                                                    "logs",
                                                    List.of(),
                                                    keys,
                                                    METHODS,
                                                    filters,
                                                    Map.of(parameter(failure), failure.getMessage()),
                                                    null)));
                        })));
    }

    @GET
    @Path("/{request}")
    public Uni<Response> detail(@BeanParam WorkspacePage requested, @PathParam("request") String requestId) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> {
                    if (!IdPrefix.REQUEST.matches(requestId)) {
                        throw DashboardRefusal.notFound();
                    }
                    // Read within the caller's workspace and mode: another tenant's request id finds nothing.
                    return logs.list(caller.workspaceId(), caller.mode(), Map.of("request_id", requestId))
                            .flatMap(page -> workspaces
                                    .listApiKeys(caller.workspaceId(), caller.mode())
                                    .map(keys -> rows(page.data(), keys)))
                            .map(rows -> rows.stream()
                                    .findFirst()
                                    .map(row -> Templates.detail(caller, "logs", row))
                                    .orElseThrow(DashboardRefusal::notFound));
                }));
    }

    private static List<LogRow> rows(List<RequestLog> logs, List<ApiKey> keys) {
        return logs.stream()
                .map(log -> new LogRow(
                        log,
                        keys.stream()
                                .filter(key -> key.id.equals(log.keyId()))
                                .findFirst()
                                .orElse(null)))
                .toList();
    }

    private static boolean badFilter(Throwable failure) {
        return failure instanceof ApiException api && api.code().httpStatus() == 400;
    }

    /** The query parameter the service refused (beside its field on the page), or {@code cursor} by default. */
    private static String parameter(Throwable failure) {
        return ((ApiException) failure).details().get("parameter") instanceof String parameter ? parameter : "cursor";
    }

    /** The next page: the same filters (the cursor is bound to them) and the cursor. */
    static String olderHref(DashboardCaller caller, LogFilters filters, String cursor) {
        StringJoiner query = new StringJoiner("&", "?", "");
        Map<String, String> parameters = filters.query();
        parameters.put("cursor", cursor);
        parameters.forEach((name, value) -> query.add(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return caller.base() + "/logs" + query;
    }
}
