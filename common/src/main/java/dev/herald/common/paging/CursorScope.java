package dev.herald.common.paging;

import dev.herald.common.auth.Mode;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a cursor is bound to: the resource kind, the tenant (workspace + mode), the parent resource
 * (an account for boards, say) and every filter of the list. A cursor minted under one scope is
 * rejected under any other, so a customer cannot page through a list with other filters or another key.
 */
public record CursorScope(String kind, String workspaceId, Mode mode, String parent, Map<String, String> filters) {
    public CursorScope {
        filters = filters == null ? Map.of() : new TreeMap<>(filters);
        parent = parent == null ? "" : parent;
    }

    public static CursorScope of(String kind, String workspaceId, Mode mode, Map<String, String> filters) {
        return new CursorScope(kind, workspaceId, mode, null, filters);
    }

    /** A canonical text of the scope; filters are sorted, and absent filters are simply not listed. */
    String canonical() {
        StringBuilder text = new StringBuilder();
        text.append(kind)
                .append('\n')
                .append(workspaceId)
                .append('\n')
                .append(mode.wireName())
                .append('\n')
                .append(parent);
        filters.forEach((name, value) -> {
            if (value != null) {
                text.append('\n')
                        .append(name)
                        .append('=')
                        .append(value.length())
                        .append(':')
                        .append(value);
            }
        });
        return text.toString();
    }
}
