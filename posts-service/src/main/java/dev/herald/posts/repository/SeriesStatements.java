package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.persistence.SqlParameters;
import dev.herald.common.wire.PostSeries;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Recurring posts' series ({@code V13__post_series.sql}): the row the first post's commit writes
 * ({@link #insertFrom}, part of {@link AcceptanceStatements}'s statement), {@code SeriesCopyJob}'s claims
 * ({@code SKIP LOCKED} and a lease, so replicas share the work and a dead replica's claim falls due again), the advance
 * past each occurrence, and the reads and cancellation of {@code /post-series/{id}}.
 */
@ApplicationScoped
public class SeriesStatements {
    private static final String COLUMNS = """
            id, workspace_id, mode, cast(body as text) as body, every, until_at, count, timezone, first_at, next_index,
            next_at, post_ids, status, cast(last_error as text) as last_error, created_at, updated_at""";

    private static final NamedStatement CLAIM_DUE =
            NamedStatement.of("""
            with due as (
                select id from post_series where status = 'active' and create_at <= :now
                order by create_at limit :limit for update skip locked)
            update post_series s set create_at = :lease_until
            from due where s.id = due.id
            returning\s""" + COLUMNS.replace("id, workspace_id", "s.id, workspace_id"));

    /**
     * Past occurrence {@code :index}, once: its post (if one was created) joins the list, the error (if it was refused)
     * is the series' last, and the next occurrence is due; a series canceled meanwhile stays canceled and expects no
     * more. Answers the status, so that a copy created for a series canceled meanwhile is canceled in turn.
     */
    private static final NamedStatement ADVANCE = NamedStatement.of("""
            update post_series set
                post_ids = case when :post_id::text is null then post_ids else array_append(post_ids, :post_id::text) end,
                last_error = :last_error::text::jsonb,
                next_index = :index::integer + 1,
                next_at = case when status = 'active' then :next_at::timestamptz end,
                create_at = case when status = 'active' then :create_at::timestamptz end,
                status = case when status = 'active' and :next_at::timestamptz is null then 'completed' else status end,
                updated_at = :now
            where id = :id and next_index = :index::integer
            returning status""");

    private static final NamedStatement FIND = NamedStatement.of(
            "select " + COLUMNS + " from post_series where id = :id and workspace_id = :workspace_id and mode = :mode");

    private static final NamedStatement CANCEL = NamedStatement.of("""
            update post_series set status = 'canceled', next_at = null, create_at = null, updated_at = :now
            where id = :id and workspace_id = :workspace_id and mode = :mode and status = 'active'""");

    private static final NamedStatement QUEUED_POSTS = NamedStatement.of("""
            select id from posts where series_id = :id and workspace_id = :workspace_id and mode = :mode
                and status = 'queued' order by due_at""");

    private final Pool pool;

    public SeriesStatements(Pool pool) {
        this.pool = pool;
    }

    /**
     * A series as its first post's acceptance starts it: {@code body} (JSON text) is what each copy is accepted from;
     * {@code nextAt} and {@code createAt} are its first copy's time and when to create it (null, and {@code status}
     * completed, when {@code until} leaves room for none).
     */
    public record NewSeries(
            String id,
            String body,
            PostSeries.Repeat repeat,
            Instant firstAt,
            Instant nextAt,
            Instant createAt,
            String status) {}

    /** A series as stored; {@code lastError} is an {@code ApiError} as JSON text. */
    public record StoredSeries(
            String id,
            String workspaceId,
            Mode mode,
            String body,
            PostSeries.Repeat repeat,
            Instant firstAt,
            int nextIndex,
            Instant nextAt,
            List<String> postIds,
            String status,
            String lastError,
            Instant createdAt,
            Instant updatedAt) {}

    /**
     * The insert of {@link #bind}'s series, once per row of {@code source} (the CTE returning the first post's id),
     * for {@link AcceptanceStatements}: written with its first post or not at all. Uses the statement's
     * {@code :workspace_id}, {@code :mode} and {@code :created_at}.
     */
    static String insertFrom(String source) {
        return """
                insert into post_series (id, workspace_id, mode, body, every, until_at, count, timezone, first_at,
                    next_index, next_at, create_at, post_ids, status, created_at, updated_at)
                select :series_id, :workspace_id, :mode, :series_body::text::jsonb, :series_every,
                    :series_until::timestamptz, :series_count::integer, :series_timezone, :series_first_at::timestamptz,
                    1, :series_next_at::timestamptz, :series_create_at::timestamptz, array[%1$s.id], :series_status,
                    :created_at, :created_at
                from %1$s where :series_body::text is not null""".formatted(source);
    }

    /**
     * Binds {@link #insertFrom}: {@code seriesId} is the post's series (also bound for a copy, whose series exists),
     * {@code series} the one it starts (null for none).
     */
    static NamedStatement.Parameters bind(NamedStatement.Parameters parameters, String seriesId, NewSeries series) {
        PostSeries.Repeat repeat = series == null ? null : series.repeat();
        return parameters
                .set("series_id", seriesId)
                .set("series_body", series == null ? null : series.body())
                .set("series_every", repeat == null ? null : repeat.every())
                .set("series_until", repeat == null ? null : repeat.until())
                .set("series_count", repeat == null ? null : repeat.count())
                .set("series_timezone", repeat == null ? null : repeat.timezone())
                .set("series_first_at", series == null ? null : series.firstAt())
                .set("series_next_at", series == null ? null : series.nextAt())
                .set("series_create_at", series == null ? null : series.createAt())
                .set("series_status", series == null ? null : series.status());
    }

    /** Up to {@code limit} active series whose next copy is to be created, each claimed until {@code leaseUntil}. */
    public Uni<List<StoredSeries>> claimDue(Instant now, Instant leaseUntil, int limit) {
        return CLAIM_DUE
                .parameters()
                .set("now", now)
                .set("lease_until", leaseUntil)
                .set("limit", limit)
                .execute(pool)
                .map(SeriesStatements::all);
    }

    /**
     * Moves the series past occurrence {@code index}: {@code postId} is its post (null when it was refused, with
     * {@code lastError}); {@code nextAt} the next occurrence's time and {@code createAt} when to create it (both null
     * when none remains). The series' status after it, or null when the series was already past it.
     */
    public Uni<String> advance(
            String id, int index, String postId, String lastError, Instant nextAt, Instant createAt, Instant now) {
        return ADVANCE.parameters()
                .set("id", id)
                .set("index", index)
                .set("post_id", postId)
                .set("last_error", lastError)
                .set("next_at", nextAt)
                .set("create_at", createAt)
                .set("now", now)
                .execute(pool)
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getString("status") : null);
    }

    /** The tenant's series, or null. */
    public Uni<StoredSeries> find(String workspaceId, Mode mode, String id) {
        return FIND.parameters()
                .set("id", id)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .execute(pool)
                .map(rows -> {
                    List<StoredSeries> found = all(rows);
                    return found.isEmpty() ? null : found.get(0);
                });
    }

    /** Ends the tenant's series if it is active: no more copies are created. */
    public Uni<Void> cancel(String workspaceId, Mode mode, String id, Instant now) {
        return CANCEL.parameters()
                .set("id", id)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("now", now)
                .execute(pool)
                .replaceWithVoid();
    }

    /** The series' posts still queued (not yet handed to delivery), soonest first. */
    public Uni<List<String>> queuedPosts(String workspaceId, Mode mode, String id) {
        return QUEUED_POSTS
                .parameters()
                .set("id", id)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .execute(pool)
                .map(rows -> {
                    List<String> ids = new ArrayList<>();
                    rows.forEach(row -> ids.add(row.getString("id")));
                    return ids;
                });
    }

    private static List<StoredSeries> all(RowSet<Row> rows) {
        List<StoredSeries> series = new ArrayList<>();
        for (Row row : rows) {
            series.add(new StoredSeries(
                    row.getString("id"),
                    row.getString("workspace_id"),
                    Mode.fromWire(row.getString("mode")).orElseThrow(),
                    row.getString("body"),
                    new PostSeries.Repeat(
                            row.getString("every"),
                            SqlParameters.instant(row, "until_at"),
                            row.getInteger("count"),
                            row.getString("timezone")),
                    SqlParameters.instant(row, "first_at"),
                    row.getInteger("next_index"),
                    SqlParameters.instant(row, "next_at"),
                    Arrays.asList(row.getArrayOfStrings("post_ids")),
                    row.getString("status"),
                    row.getString("last_error"),
                    SqlParameters.instant(row, "created_at"),
                    SqlParameters.instant(row, "updated_at")));
        }
        return series;
    }
}
