package dev.herald.common.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.FieldError;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Text that PostgreSQL keeps exactly as sent. Two kinds of character cannot be: U+0000, which a {@code text} column
 * refuses outright (the request would fail with a 500), and an unpaired UTF-16 surrogate (JSON's {@code "\udc00"}),
 * which UTF-8 cannot encode, so the driver would store {@code ?} and the record would no longer be what the client
 * sent and was shown. Both are refused as bad input before anything is read or written.
 */
public final class StorableText {
    public static final String CODE = "invalid_value";

    private StorableText() {}

    public static boolean isStorable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** Why {@code name} (a field or a query parameter) was refused. */
    public static String problem(String name) {
        return name + " contains a character Herald cannot store: U+0000 (NUL) or an unpaired UTF-16 surrogate.";
    }

    /** Every string of a JSON body, value or key, that cannot be stored, named by its path ({@code media.url}). */
    public static List<FieldError> unstorableFields(JsonNode body) {
        List<FieldError> errors = new ArrayList<>();
        collect(body, "", errors);
        return errors;
    }

    private static void collect(JsonNode node, String path, List<FieldError> errors) {
        if (node.isTextual()) {
            if (!isStorable(node.textValue())) {
                errors.add(new FieldError(path, CODE, problem(path)));
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collect(node.get(i), path + "[" + i + "]", errors);
            }
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                String name = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                if (!isStorable(field.getKey())) {
                    errors.add(new FieldError(name, CODE, problem(name)));
                } else {
                    collect(field.getValue(), name, errors);
                }
            }
        }
    }
}
