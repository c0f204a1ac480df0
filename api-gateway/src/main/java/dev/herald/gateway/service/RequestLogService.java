package dev.herald.gateway.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.paging.CursorCodec;
import dev.herald.common.paging.CursorPosition;
import dev.herald.common.paging.CursorScope;
import dev.herald.common.paging.Page;
import dev.herald.common.paging.PageRequest;
import dev.herald.common.validation.QueryParameters;
import dev.herald.common.validation.StorableText;
import dev.herald.common.wire.RequestLog;
import dev.herald.gateway.repository.RequestLogStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** {@code GET /logs}: a workspace+mode's API requests, newest first. */
@ApplicationScoped
public class RequestLogService {
    private static final Set<String> METHODS = Set.of("GET", "POST", "PATCH", "PUT", "DELETE");

    private final RequestLogStatements logs;
    private final CursorCodec cursors;

    public RequestLogService(RequestLogStatements logs, CursorCodec cursors) {
        this.logs = logs;
        this.cursors = cursors;
    }

    public Uni<ListEnvelope<RequestLog>> list(String workspaceId, Mode mode, Map<String, String> query) {
        RequestLogStatements.Filters filters = new RequestLogStatements.Filters(
                status(query.get("status")),
                method(query.get("method")),
                path(query.get("path")),
                requestId(query.get("request_id")),
                keyId(query.get("key_id")));
        Map<String, String> scopeFilters = new LinkedHashMap<>();
        scopeFilters.put("status", query.get("status"));
        scopeFilters.put("method", filters.method());
        scopeFilters.put("path", filters.pathPrefix());
        scopeFilters.put("request_id", filters.requestId());
        scopeFilters.put("key_id", filters.keyId());
        CursorScope scope = CursorScope.of("logs", workspaceId, mode, scopeFilters);
        PageRequest page = PageRequest.parse(query.get("limit"), query.get("cursor"), scope, cursors);
        return logs.listPage(workspaceId, mode, filters, page.after(), page.fetchSize())
                .map(rows -> Page.of(
                        rows, page, log -> new CursorPosition(log.createdAt(), log.id()), log -> log, scope, cursors));
    }

    private static Integer status(String value) {
        if (value == null) {
            return null;
        }
        // ASCII digits only: Integer.parseInt also reads "+404" and other scripts' digits ("\u0664\u0660\u0660").
        if (value.matches("[0-9]{3}")) {
            int status = Integer.parseInt(value);
            if (status >= 100 && status <= 599) {
                return status;
            }
        }
        throw ApiException.invalidParameter("status", "status must be an HTTP status code from 100 to 599.");
    }

    private static String method(String value) {
        if (value == null) {
            return null;
        }
        String method = value.toUpperCase();
        if (!METHODS.contains(method)) {
            throw ApiException.invalidParameter("method", "method must be one of GET, POST, PATCH, PUT, DELETE.");
        }
        return method;
    }

    private static String path(String value) {
        String path = QueryParameters.boundedText("path", value, 200);
        if (path != null && !StorableText.isStorable(path)) {
            // The services' StorableTextRequestFilter does this for theirs; this list is the gateway's own.
            throw ApiException.invalidParameter("path", StorableText.problem("path"));
        }
        if (path != null && !path.startsWith("/")) {
            throw ApiException.invalidParameter("path", "path must start with /, e.g. /api/v1/posts.");
        }
        return path;
    }

    /** An API key's id or an OAuth credential's (an external issuer's are {@code ext:<issuer>:<subject>}). */
    private static String keyId(String value) {
        String keyId = QueryParameters.boundedText("key_id", value, 300);
        if (keyId != null && (keyId.isEmpty() || !StorableText.isStorable(keyId))) {
            throw ApiException.invalidParameter(
                    "key_id",
                    "key_id must be a credential's id as GET /logs shows it, e.g. key_0123456789abcdef01234567.");
        }
        return keyId;
    }

    private static String requestId(String value) {
        if (value != null && !IdPrefix.REQUEST.matches(value)) {
            throw ApiException.invalidParameter(
                    "request_id", "request_id must look like req_ followed by 24 hex characters.");
        }
        return value;
    }
}
