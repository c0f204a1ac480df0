package dev.herald.posts.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A first comment's shape ({@code { text }}, the post's {@code first_comment} and each platform's override in
 * {@code platform_options.<platform>.first_comment} alike) and each platform's comment limit. Platforms missing from
 * {@link #LIMITS} have no comment API Herald can post a first comment through (TikTok, Pinterest). What becomes of a
 * first comment once accepted is {@link FirstComments}.
 */
public final class FirstCommentRules {
    /** The longest comment any platform with a comment API takes (YouTube's); each platform's own applies too. */
    public static final int MAX_LENGTH = 10_000;

    /**
     * Each platform's comment limit in characters: Facebook's comment message 8000, Instagram's comment 2200 (its
     * caption limit), YouTube's commentThreads textOriginal 10,000, LinkedIn's comment text 1250.
     */
    static final Map<Platform, Integer> LIMITS = Map.of(
            Platform.FACEBOOK, 8000, Platform.INSTAGRAM, 2200, Platform.YOUTUBE, 10_000, Platform.LINKEDIN, 1250);

    private FirstCommentRules() {}

    /**
     * The comment {@code value} at {@code field} holds, or null when it is absent or malformed (its problems added to
     * {@code errors}).
     */
    public static Post.FirstComment read(JsonNode value, String field, List<FieldError> errors) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isObject()) {
            errors.add(new FieldError(field, "invalid_type", field + " must be an object with text."));
            return null;
        }
        for (Iterator<String> names = value.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!"text".equals(name)) {
                errors.add(new FieldError(
                        field + "." + name,
                        "unknown_field",
                        field + "." + name + " is not a field of a first comment."));
            }
        }
        JsonNode text = value.get("text");
        String textField = field + ".text";
        if (text == null || text.isNull()) {
            errors.add(new FieldError(textField, "required", textField + " is required."));
        } else if (!text.isTextual()) {
            errors.add(new FieldError(textField, "invalid_type", textField + " must be a string."));
        } else if (text.textValue().isBlank()) {
            errors.add(new FieldError(textField, "too_short", textField + " must not be empty."));
        } else if (length(text.textValue()) > MAX_LENGTH) {
            errors.add(new FieldError(
                    textField, "too_long", textField + " must be at most " + MAX_LENGTH + " characters."));
        } else {
            return new Post.FirstComment(text.textValue());
        }
        return null;
    }

    static int length(String text) {
        return text.codePointCount(0, text.length());
    }
}
