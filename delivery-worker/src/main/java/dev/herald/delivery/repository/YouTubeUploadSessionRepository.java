package dev.herald.delivery.repository;

import dev.herald.common.persistence.SqlParameters;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/** Each target's YouTube resumable upload session ({@code youtube_upload_sessions}), kept across attempts. */
@ApplicationScoped
public class YouTubeUploadSessionRepository {
    private final Pool pool;

    public YouTubeUploadSessionRepository(Pool pool) {
        this.pool = pool;
    }

    public record Session(String uri, long size) {}

    public Uni<Optional<Session>> find(String token) {
        return pool.preparedQuery("select session_uri, size from youtube_upload_sessions where token = $1")
                .execute(SqlParameters.of(token))
                .map(rows -> rows.rowCount() == 0
                        ? Optional.<Session>empty()
                        : Optional.of(new Session(
                                rows.iterator().next().getString("session_uri"),
                                rows.iterator().next().getLong("size"))));
    }

    public Uni<Void> save(String token, Session session, Instant now) {
        return pool.preparedQuery("""
                        insert into youtube_upload_sessions (token, session_uri, size, created_at) values ($1, $2, $3, $4)
                        on conflict (token) do update set session_uri = excluded.session_uri, size = excluded.size,
                            created_at = excluded.created_at""")
                .execute(SqlParameters.of(token, session.uri(), session.size(), now))
                .replaceWithVoid();
    }

    public Uni<Void> forget(String token) {
        return pool.preparedQuery("delete from youtube_upload_sessions where token = $1")
                .execute(SqlParameters.of(token))
                .replaceWithVoid();
    }
}
