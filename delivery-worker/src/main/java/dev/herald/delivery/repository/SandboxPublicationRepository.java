package dev.herald.delivery.repository;

import dev.herald.common.persistence.SqlParameters;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/** The sandbox provider's memory of publish calls, one row per idempotency token. */
@ApplicationScoped
public class SandboxPublicationRepository {
    private final Pool pool;

    public SandboxPublicationRepository(Pool pool) {
        this.pool = pool;
    }

    /** What the sandbox holds for a token after a call: the post it published (null if none yet) and the calls made. */
    public record SandboxCall(String providerPostId, int publishCalls) {}

    /**
     * Counts one publish call for {@code token}, atomically. A first call stores {@code postIdIfFirst}; a later
     * one keeps the post already published, or stores {@code postIdIfRepeated} when there is none yet. So the
     * token's post, once published, never changes and is never published a second time.
     */
    public Uni<SandboxCall> recordCall(String token, String postIdIfFirst, String postIdIfRepeated, Instant now) {
        return pool.preparedQuery("""
                        insert into sandbox_publications as p (token, provider_post_id, publish_calls, created_at, last_called_at)
                        values ($1, $2, 1, $4, $4)
                        on conflict (token) do update set publish_calls = p.publish_calls + 1,
                            provider_post_id = coalesce(p.provider_post_id, $3), last_called_at = $4
                        returning provider_post_id, publish_calls""")
                .execute(SqlParameters.of(token, postIdIfFirst, postIdIfRepeated, now))
                .map(rows -> {
                    var row = rows.iterator().next();
                    return new SandboxCall(row.getString("provider_post_id"), row.getInteger("publish_calls"));
                });
    }

    /** The post the sandbox published for {@code token}, or null when it published none (or was never called). */
    public Uni<String> publishedPost(String token) {
        return pool.preparedQuery("select provider_post_id from sandbox_publications where token = $1")
                .execute(SqlParameters.of(token))
                .map(rows ->
                        rows.rowCount() == 0 ? null : rows.iterator().next().getString("provider_post_id"));
    }
}
