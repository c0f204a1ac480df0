package dev.herald.posts.service;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;

/**
 * What "the same request" means for an Idempotency-Key (DESIGN section 3): the SHA-256 of the body's
 * canonical JSON, objects with their members sorted by name, so whitespace and member order do not matter
 * but every value does.
 */
final class RequestFingerprint {
    private RequestFingerprint() {}

    static String of(JsonNode body) {
        StringBuilder canonical = new StringBuilder();
        write(body, canonical);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(JsonNode node, StringBuilder out) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            names.sort(null);
            out.append('{');
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(com.fasterxml.jackson.databind.node.TextNode.valueOf(names.get(i))
                                .toString())
                        .append(':');
                write(node.get(names.get(i)), out);
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(node.get(i), out);
            }
            out.append(']');
        } else {
            // Scalars in their JSON spelling: numbers keep their exact text, strings are escaped.
            out.append(node.toString());
        }
    }
}
