package dev.herald.common.wire;

import dev.herald.common.auth.Mode;
import java.time.Instant;
import java.util.List;

/**
 * A recurring post ({@code GET|DELETE /post-series/{id}}): the post created with {@code repeat} and its copies,
 * each a post of its own ({@link Post#seriesId}) with its own reservation. Herald creates one copy at a time: when a
 * copy falls due, the next is created and scheduled {@code repeat.every} later, until {@code repeat.until} or
 * {@code repeat.count} posts in all. {@code status} is {@link #ACTIVE} while copies remain to be created,
 * {@link #COMPLETED} when the last was, {@link #CANCELED} after {@code DELETE} (which also cancels the pending copy).
 * {@code nextAt} is the time of the next copy still to be created (null unless active). {@code lastError} says why
 * the latest copy could not be created (e.g. the allowance was spent); the series goes on with the one after.
 */
public record PostSeries(
        String id,
        String status,
        Mode mode,
        Repeat repeat,
        List<String> postIds,
        int postsCreated,
        Instant nextAt,
        dev.herald.common.api.ApiError lastError,
        Instant createdAt,
        Instant updatedAt) {
    public static final String ACTIVE = "active";
    public static final String COMPLETED = "completed";
    public static final String CANCELED = "canceled";

    /**
     * A post's {@code repeat}: {@code every} is an ISO 8601 period of whole days, weeks or months ({@code P1D} to
     * {@code P1Y}, e.g. {@code P7D}, {@code P1W}, {@code P1M}), added in {@code timezone} (an IANA zone, default
     * {@code UTC}) so a post at 09:00 local stays at 09:00 across daylight-saving changes; exactly one of
     * {@code until} (the last copy's latest time) and {@code count} (posts in all, the first included, 2 to 366).
     */
    public record Repeat(String every, Instant until, Integer count, String timezone) {}
}
