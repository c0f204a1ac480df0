package dev.herald.posts.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostMedia;
import dev.herald.common.wire.PostSeries;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code POST /posts} body as read, with the problems found in its shape so far. Rules that need the
 * accounts (platform limits, options, connection) add theirs before anything is refused, so one 422 names
 * every failing field. {@code accountIds} holds the ids that could be read, at their positions in the
 * request (null where an element was not a string). {@code media} holds the items that could be read, in order
 * (null when none was given or none could be read). {@code repeat} makes the post the first of a series (null when
 * not given or unreadable). {@code nextSlot}: {@code scheduled_at} was {@code "next_slot"} (and {@code scheduledAt} is
 * null): the post takes its profile's next free queue slot ({@link NextSlots}).
 */
public record PostDraft(
        String text,
        List<String> accountIds,
        PostMedia media,
        Instant scheduledAt,
        ObjectNode platformOptions,
        Post.FirstComment firstComment,
        PostSeries.Repeat repeat,
        List<FieldError> errors,
        boolean nextSlot) {

    /** {@code "next_slot"} is what {@code scheduled_at} says instead of a time. */
    public static final String NEXT_SLOT = "next_slot";

    /** A draft of a post that does not repeat, with a time or none for {@code scheduled_at}. */
    public PostDraft(
            String text,
            List<String> accountIds,
            PostMedia media,
            Instant scheduledAt,
            ObjectNode platformOptions,
            Post.FirstComment firstComment,
            List<FieldError> errors) {
        this(text, accountIds, media, scheduledAt, platformOptions, firstComment, null, errors, false);
    }

    /**
     * The field path of media item {@code index} as the request named it: {@code media} for the one-object form,
     * {@code media[2]} for an array.
     */
    public String mediaField(int index) {
        return media != null && !media.listed() ? "media" : "media[" + index + "]";
    }

    /** Whether the request gave media, whether or not it could be read. */
    public boolean mediaGiven() {
        return media != null || errors.stream().anyMatch(e -> e.field().startsWith("media"));
    }

    /** This draft with {@code more} problems. */
    public PostDraft withErrors(List<FieldError> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<FieldError> all = new ArrayList<>(errors);
        all.addAll(more);
        return new PostDraft(
                text, accountIds, media, scheduledAt, platformOptions, firstComment, repeat, all, nextSlot);
    }
}
