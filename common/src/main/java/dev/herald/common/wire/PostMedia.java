package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A post's media in the order given: one item, or several (a carousel, a multi-photo post). The API accepts
 * {@code media} as one object {@code { url, type }} or as an array of them, and echoes it in the shape it was given
 * ({@code listed}), so a client of the one-object form keeps reading one object. Everything past the API reads
 * {@link #items}.
 */
public record PostMedia(List<Post.Media> items, boolean listed) {
    public PostMedia {
        items = List.copyOf(items);
        if (items.isEmpty()) {
            throw new IllegalArgumentException("a post's media has at least one item");
        }
    }

    /** One item given as one object. */
    public static PostMedia single(Post.Media media) {
        return new PostMedia(List.of(media), false);
    }

    /** Items given as an array (of one or more). */
    public static PostMedia listed(List<Post.Media> items) {
        return new PostMedia(items, true);
    }

    /** The first item: the only one of a single-media post. */
    @JsonIgnore
    public Post.Media first() {
        return items.get(0);
    }

    @JsonIgnore
    public int size() {
        return items.size();
    }

    /** Whether every item is of {@code type} ({@link Post.Media#IMAGE}, {@link Post.Media#VIDEO}). */
    public boolean all(String type) {
        return items.stream().allMatch(item -> type.equals(item.type()));
    }

    @JsonValue
    Object json() {
        return listed ? items : items.get(0);
    }

    /** Reads what {@link #json} wrote (stored posts and events); the API's own reader checks each field first. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static PostMedia fromJson(JsonNode node) {
        if (node.isArray()) {
            List<Post.Media> items = new ArrayList<>();
            node.forEach(item -> items.add(item(item)));
            return listed(items);
        }
        return single(item(node));
    }

    private static Post.Media item(JsonNode node) {
        return new Post.Media(node.path("url").asText(null), node.path("type").asText(null));
    }
}
