package dev.herald.posts.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.FieldError;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostMedia;
import dev.herald.common.wire.PostSeries;
import dev.herald.posts.service.FirstCommentRules;
import dev.herald.posts.service.HttpsUrls;
import dev.herald.posts.service.PostDraft;
import dev.herald.posts.service.RepeatRules;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the shape of a {@code POST /posts} body (public: a series' copies are read from their stored body the same way,
 * {@code SeriesCopying}): types, lengths and formats of every field, nested ones
 * included (field paths like {@code media.url} and {@code account_ids[2]}). Problems are collected, not
 * thrown, so that the account rules can add theirs to the same answer.
 */
public final class PostRequestReader {
    static final int MAX_TEXT_LENGTH = 5000;
    static final int MAX_TARGETS = 100;
    /** The most media items any platform takes in one post (TikTok's photo posts); each platform's own is lower. */
    static final int MAX_MEDIA_ITEMS = 35;

    private static final Set<String> FIELDS =
            Set.of("text", "account_ids", "media", "scheduled_at", "platform_options", "first_comment", "repeat");
    private static final Set<String> MEDIA_FIELDS = Set.of("url", "type");
    private static final Set<String> MEDIA_TYPES = Set.of(Post.Media.VIDEO, Post.Media.IMAGE, Post.Media.DOCUMENT);

    private final List<FieldError> errors = new ArrayList<>();
    private final boolean allowHttpMedia;
    private boolean nextSlot;

    private PostRequestReader(boolean allowHttpMedia) {
        this.allowHttpMedia = allowHttpMedia;
    }

    /** {@code allowHttpMedia}: local runs, where media may be served over plain http ({@code herald.media.allow-private-urls}). */
    public static PostDraft read(JsonNode body, boolean allowHttpMedia) {
        if (body == null || body.isMissingNode() || body.isNull()) {
            throw ApiException.invalidRequest("A JSON object body is required.");
        }
        if (!body.isObject()) {
            throw ApiException.invalidRequest("The request body must be a JSON object.");
        }
        return new PostRequestReader(allowHttpMedia).readPost(body);
    }

    private PostDraft readPost(JsonNode body) {
        unknownFields(body, FIELDS, "");
        String text = text(body.get("text"));
        List<String> accountIds = accountIds(body.get("account_ids"));
        PostMedia media = media(body.get("media"));
        Instant scheduledAt = scheduledAt(body.get("scheduled_at"));
        ObjectNode options = platformOptions(body.get("platform_options"));
        Post.FirstComment firstComment = FirstCommentRules.read(body.get("first_comment"), "first_comment", errors);
        PostSeries.Repeat repeat = RepeatRules.read(body.get("repeat"), body.get("scheduled_at"), errors);
        return new PostDraft(text, accountIds, media, scheduledAt, options, firstComment, repeat, errors, nextSlot);
    }

    private String text(JsonNode value) {
        if (value == null || value.isNull()) {
            reject("text", "required", "text is required (it may be empty when the post has media).");
            return null;
        }
        if (!value.isTextual()) {
            reject("text", "invalid_type", "text must be a string.");
            return null;
        }
        String text = value.textValue();
        if (text.codePointCount(0, text.length()) > MAX_TEXT_LENGTH) {
            reject("text", "too_long", "text must be at most " + MAX_TEXT_LENGTH + " characters.");
            return null;
        }
        return text;
    }

    private List<String> accountIds(JsonNode value) {
        if (value == null || value.isNull()) {
            reject("account_ids", "required", "account_ids is required: the accounts to publish to.");
            return List.of();
        }
        if (!value.isArray()) {
            reject("account_ids", "invalid_type", "account_ids must be an array of account ids.");
            return List.of();
        }
        if (value.isEmpty()) {
            reject("account_ids", "too_short", "account_ids must name at least one account.");
            return List.of();
        }
        if (value.size() > MAX_TARGETS) {
            reject("account_ids", "too_long", "account_ids may name at most " + MAX_TARGETS + " accounts.");
            return List.of();
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            JsonNode element = value.get(i);
            String field = "account_ids[" + i + "]";
            if (!element.isTextual()) {
                reject(field, "invalid_type", field + " must be a string.");
                ids.add(null);
            } else if (ids.contains(element.textValue())) {
                reject(field, "invalid_value", element.textValue() + " is listed more than once.");
                ids.add(null);
            } else {
                ids.add(element.textValue());
            }
        }
        return ids;
    }

    /** One {@code { url, type }} object, or an array of 1 to {@link #MAX_MEDIA_ITEMS} of them, in order. */
    private PostMedia media(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isObject()) {
            Post.Media item = mediaItem(value, "media");
            return item == null ? null : PostMedia.single(item);
        }
        if (!value.isArray()) {
            reject("media", "invalid_type", "media must be an object with url and type, or an array of them.");
            return null;
        }
        if (value.isEmpty()) {
            reject("media", "too_short", "media must hold at least one item; omit it for a post without media.");
            return null;
        }
        if (value.size() > MAX_MEDIA_ITEMS) {
            reject("media", "too_long", "media may hold at most " + MAX_MEDIA_ITEMS + " items.");
            return null;
        }
        List<Post.Media> items = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            String field = "media[" + i + "]";
            if (!value.get(i).isObject()) {
                reject(field, "invalid_type", field + " must be an object with url and type.");
                continue;
            }
            Post.Media item = mediaItem(value.get(i), field);
            if (item != null) {
                items.add(item);
            }
        }
        // A partly unreadable list is refused anyway; the items read still get their platform checks.
        return items.isEmpty() ? null : PostMedia.listed(items);
    }

    private Post.Media mediaItem(JsonNode value, String field) {
        unknownFields(value, MEDIA_FIELDS, field + ".");
        String url = mediaUrl(value.get("url"), field + ".url", true, allowHttpMedia);
        String type = null;
        JsonNode typeNode = value.get("type");
        String typeField = field + ".type";
        if (typeNode == null || typeNode.isNull()) {
            reject(typeField, "required", typeField + " is required: video, image or document.");
        } else if (!typeNode.isTextual()) {
            reject(typeField, "invalid_type", typeField + " must be a string.");
        } else if (!MEDIA_TYPES.contains(typeNode.textValue())) {
            reject(typeField, "invalid_value", typeField + " must be video, image or document.");
        } else {
            type = typeNode.textValue();
        }
        return url == null || type == null ? null : new Post.Media(url, type);
    }

    private Instant scheduledAt(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            reject("scheduled_at", "invalid_type", "scheduled_at must be an RFC 3339 timestamp string or next_slot.");
            return null;
        }
        if (PostDraft.NEXT_SLOT.equals(value.textValue())) {
            nextSlot = true;
            return null;
        }
        Optional<Instant> at = Timestamps.parseRfc3339(value.textValue());
        if (at.isEmpty()) {
            reject(
                    "scheduled_at",
                    "invalid_format",
                    "scheduled_at must be an RFC 3339 timestamp with a time zone, such as 2026-12-01T09:00:00Z, or"
                            + " next_slot (the next free slot of the profile's queue).");
            return null;
        }
        return at.get();
    }

    private ObjectNode platformOptions(JsonNode value) {
        if (value == null || value.isNull()) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (!value.isObject()) {
            reject("platform_options", "invalid_type", "platform_options must be an object keyed by platform.");
            return JsonNodeFactory.instance.objectNode();
        }
        return (ObjectNode) value;
    }

    private String mediaUrl(JsonNode value, String field, boolean required, boolean allowHttp) {
        if (value == null || value.isNull()) {
            if (required) {
                reject(field, "required", field + " is required.");
            }
            return null;
        }
        if (!value.isTextual()) {
            reject(field, "invalid_type", field + " must be a string.");
            return null;
        }
        Optional<String> problem = HttpsUrls.mediaProblem(value.textValue(), allowHttp);
        if (problem.isPresent()) {
            reject(
                    field,
                    problem.get().startsWith("must be at most") ? "too_long" : "invalid_format",
                    field + " " + problem.get() + ".");
            return null;
        }
        return value.textValue();
    }

    private void unknownFields(JsonNode object, Set<String> known, String prefix) {
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                reject(prefix + name, "unknown_field", prefix + name + " is not a field of this request.");
            }
        }
    }

    private void reject(String field, String code, String message) {
        errors.add(new FieldError(field, code, message));
    }
}
