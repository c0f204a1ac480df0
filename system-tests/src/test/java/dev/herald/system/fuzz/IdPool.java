package dev.herald.system.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Real ids of the fuzz workspace, by kind ({@code prf}, {@code acc}, ... and {@code board} for Pinterest boards),
 * so that valid requests reach existing resources and exercise success paths, not just 404s. Seeded up front and
 * grown from every successful answer; and the list cursors answers hand out, with the query that produced them.
 */
public final class IdPool {
    private static final Pattern ID = Pattern.compile("^(prf|acc|pst|ser|cs|cmt|whe|evt|dlv|req)_[a-f0-9]{24}$");
    /** Recent ids are the likeliest to still exist; older ones are forgotten beyond this many per kind. */
    private static final int KEPT_PER_KIND = 40;

    /**
     * A cursor with the path and query parameters of the page that handed it out: a cursor is bound to its filters
     * and to its parent resource (the account of a board list, the board of a section list).
     */
    public record Cursor(String path, Map<String, String> query, String cursor) {}

    private final Map<String, List<String>> ids = new HashMap<>();
    private final Map<String, List<Cursor>> cursors = new HashMap<>();

    public void add(String kind, String id) {
        List<String> kept = ids.computeIfAbsent(kind, k -> new ArrayList<>());
        if (!kept.contains(id)) {
            kept.add(id);
            if (kept.size() > KEPT_PER_KIND) {
                kept.remove(0);
            }
        }
    }

    public Optional<String> pick(String kind, Random random) {
        List<String> kept = ids.getOrDefault(kind, List.of());
        return kept.isEmpty() ? Optional.empty() : Optional.of(kept.get(random.nextInt(kept.size())));
    }

    public Optional<Cursor> cursor(String operationId, Random random) {
        List<Cursor> kept = cursors.getOrDefault(operationId, List.of());
        return kept.isEmpty() ? Optional.empty() : Optional.of(kept.get(random.nextInt(kept.size())));
    }

    /** Takes every id in a successful answer, Pinterest boards of a board list, and the list's next cursor. */
    public void harvest(String operationId, String path, Map<String, String> query, JsonNode body) {
        walk(body);
        if ("listBoards".equals(operationId)) {
            body.path("data").forEach(board -> add("board", board.path("id").asText()));
        }
        JsonNode next = body.path("meta").path("next_cursor");
        if (next.isTextual()) {
            List<Cursor> kept = cursors.computeIfAbsent(operationId, k -> new ArrayList<>());
            kept.add(new Cursor(path, new HashMap<>(query), next.asText()));
            if (kept.size() > KEPT_PER_KIND) {
                kept.remove(0);
            }
        }
    }

    private void walk(JsonNode node) {
        if (node.isTextual()) {
            Matcher matcher = ID.matcher(node.asText());
            if (matcher.matches()) {
                add(matcher.group(1), node.asText());
            }
        } else if (node.isContainerNode()) {
            for (Iterator<JsonNode> children = node.elements(); children.hasNext(); ) {
                walk(children.next());
            }
        }
    }

    /** How many ids of each kind, for the report. */
    public Map<String, Integer> sizes() {
        Map<String, Integer> sizes = new HashMap<>();
        ids.forEach((kind, kept) -> sizes.put(kind, kept.size()));
        return sizes;
    }
}
