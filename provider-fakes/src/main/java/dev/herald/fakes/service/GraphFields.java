package dev.herald.fakes.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Graph's {@code fields} parameter with field expansion (https://developers.facebook.com/docs/graph-api/field-expansion):
 * top-level fields split at the commas outside parentheses, each a name and its modifiers
 * ({@code reactions.summary(total_count).limit(0)}, {@code insights.metric(a,b)}).
 */
record GraphFields(String name, String modifiers) {

    static List<GraphFields> parse(String fields) {
        List<GraphFields> parsed = new ArrayList<>();
        if (fields == null || fields.isBlank()) {
            return parsed;
        }
        int depth = 0;
        int from = 0;
        for (int i = 0; i <= fields.length(); i++) {
            char c = i == fields.length() ? ',' : fields.charAt(i);
            if (c == '(' || c == '{') {
                depth++;
            } else if (c == ')' || c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                String field = fields.substring(from, i).trim();
                if (!field.isEmpty()) {
                    int end = 0;
                    while (end < field.length()
                            && field.charAt(end) != '.'
                            && field.charAt(end) != '('
                            && field.charAt(end) != '{') {
                        end++;
                    }
                    parsed.add(new GraphFields(field.substring(0, end), field.substring(end)));
                }
                from = i + 1;
            }
        }
        return parsed;
    }

    /**
     * The fields asked of an object or edge in braces ({@code parent{id}}, {@code replies{id,text}}), or null when the
     * field has none.
     */
    List<GraphFields> subfields() {
        int open = modifiers.indexOf('{');
        int close = modifiers.lastIndexOf('}');
        return open < 0 || close < open ? null : parse(modifiers.substring(open + 1, close));
    }

    /**
     * The first of {@code fields} (or of those in {@code nested}'s braces) that is not one of {@code known}, or null:
     * Graph refuses a request naming a field the node lacks.
     */
    static String firstUnknown(List<GraphFields> fields, Set<String> known, String nested) {
        for (GraphFields field : fields) {
            if (!known.contains(field.name())) {
                return field.name();
            }
            String inside = field.name().equals(nested) && field.subfields() != null
                    ? firstUnknown(field.subfields(), known, nested)
                    : null;
            if (inside != null) {
                return inside;
            }
        }
        return null;
    }

    /** The arguments of one modifier ({@code metric} of {@code .metric(a,b)}), or null when it is not given. */
    List<String> argument(String modifier) {
        int at = modifiers.indexOf("." + modifier + "(");
        if (at < 0) {
            return null;
        }
        int open = at + modifier.length() + 2;
        int close = modifiers.indexOf(')', open);
        return close < 0
                ? List.of()
                : List.of(modifiers.substring(open, close).split(",")).stream()
                        .map(String::trim)
                        .toList();
    }
}
