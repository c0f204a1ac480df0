package dev.herald.delivery.repository;

import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/** Each target's YouTube resumable upload session ({@code youtube_upload_sessions}), kept across attempts. */
@ApplicationScoped
public class YouTubeUploadSessionStatements {
    private static final NamedStatement FIND =
            NamedStatement.of("select session_uri, size from youtube_upload_sessions where token = :token");

    private static final NamedStatement SAVE = NamedStatement.of("""
            insert into youtube_upload_sessions (token, session_uri, size, created_at) values (:token, :session_uri, :size, :now)
            on conflict (token) do update set session_uri = excluded.session_uri, size = excluded.size,
                created_at = excluded.created_at""");

    private static final NamedStatement FORGET =
            NamedStatement.of("delete from youtube_upload_sessions where token = :token");

    private final Pool pool;

    public YouTubeUploadSessionStatements(Pool pool) {
        this.pool = pool;
    }

    public record Session(String uri, long size) {}

    public Uni<Optional<Session>> find(String token) {
        return FIND.parameters()
                .set("token", token)
                .execute(pool)
                .map(rows -> rows.rowCount() == 0
                        ? Optional.<Session>empty()
                        : Optional.of(new Session(
                                rows.iterator().next().getString("session_uri"),
                                rows.iterator().next().getLong("size"))));
    }

    public Uni<Void> save(String token, Session session, Instant now) {
        return SAVE.parameters()
                .set("token", token)
                .set("session_uri", session.uri())
                .set("size", session.size())
                .set("now", now)
                .execute(pool)
                .replaceWithVoid();
    }

    public Uni<Void> forget(String token) {
        return FORGET.parameters().set("token", token).execute(pool).replaceWithVoid();
    }
}
