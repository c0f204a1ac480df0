package dev.herald.delivery.repository;

import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * The sandbox provider's memory of publish calls: one row per idempotency token ({@code sandbox_publications}), and
 * one per call ({@code sandbox_publish_calls}), which is what shows a target published twice.
 */
@ApplicationScoped
public class SandboxPublicationStatements {
    // One statement (one round trip on the posts benchmark's hot path): the token's row numbers the call under its
    // lock, and the call's own row takes that number.
    private static final NamedStatement RECORD_CALL = NamedStatement.of("""
            with publication as (
                insert into sandbox_publications as p (token, provider_post_id, publish_calls, created_at, last_called_at)
                values (:token, :post_id_if_first, 1, :now, :now)
                on conflict (token) do update set publish_calls = p.publish_calls + 1,
                    provider_post_id = coalesce(p.provider_post_id, :post_id_if_repeated), last_called_at = :now
                returning token, provider_post_id, publish_calls)
            insert into sandbox_publish_calls (token, call_number, attempt, called_at, provider_post_id)
            select token, publish_calls, :attempt, :now, provider_post_id from publication
            returning provider_post_id, call_number as publish_calls""");

    private static final NamedStatement PUBLISHED_POST =
            NamedStatement.of("select provider_post_id from sandbox_publications where token = :token");

    private final Pool pool;

    public SandboxPublicationStatements(Pool pool) {
        this.pool = pool;
    }

    /** What the sandbox holds for a token after a call: the post it published (null if none yet) and the calls made. */
    public record SandboxCall(String providerPostId, int publishCalls) {}

    /**
     * Records one publish call for {@code token} (the target's {@code attempt}), atomically. A first call stores
     * {@code postIdIfFirst}; a later one keeps the post already published, or stores {@code postIdIfRepeated} when
     * there is none yet. So the token's post, once published, never changes; a call answered with it is recorded
     * all the same.
     */
    public Uni<SandboxCall> recordCall(
            String token, int attempt, String postIdIfFirst, String postIdIfRepeated, Instant now) {
        return RECORD_CALL
                .parameters()
                .set("token", token)
                .set("attempt", attempt)
                .set("post_id_if_first", postIdIfFirst)
                .set("post_id_if_repeated", postIdIfRepeated)
                .set("now", now)
                .execute(pool)
                .map(rows -> {
                    var row = rows.iterator().next();
                    return new SandboxCall(row.getString("provider_post_id"), row.getInteger("publish_calls"));
                });
    }

    /** The post the sandbox published for {@code token}, or null when it published none (or was never called). */
    public Uni<String> publishedPost(String token) {
        return PUBLISHED_POST
                .parameters()
                .set("token", token)
                .execute(pool)
                .map(rows ->
                        rows.rowCount() == 0 ? null : rows.iterator().next().getString("provider_post_id"));
    }
}
