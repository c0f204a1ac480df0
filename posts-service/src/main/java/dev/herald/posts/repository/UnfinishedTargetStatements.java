package dev.herald.posts.repository;

import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;

/** How long the targets that are not final have been due, for the {@code UnfinishedTargetAge} gauge. */
@ApplicationScoped
public class UnfinishedTargetStatements {
    /** On the partial indexes of queued ({@code posts_due}) and publishing ({@code posts_publishing_due}) posts. */
    private static final NamedStatement OLDEST_DUE = NamedStatement.of("""
            select t.status, min(p.due_at) as oldest_due
            from posts p join post_targets t on t.post_id = p.id
            where ((p.status = 'queued' and p.due_at <= :now) or (p.status = 'publishing' and p.due_at <= :now))
                and t.status in ('queued', 'publishing', 'uncertain')
            group by t.status""");

    private final Pool pool;

    public UnfinishedTargetStatements(Pool pool) {
        this.pool = pool;
    }

    /** The due time of the oldest due target that is not final, per target status (absent: none). */
    public Uni<Map<String, Instant>> oldestDue(Instant now) {
        return OLDEST_DUE.parameters().set("now", now).execute(pool).map(rows -> {
            Map<String, Instant> oldest = new HashMap<>();
            for (Row row : rows) {
                OffsetDateTime due = row.getOffsetDateTime("oldest_due");
                oldest.put(row.getString("status"), due.toInstant());
            }
            return oldest;
        });
    }
}
