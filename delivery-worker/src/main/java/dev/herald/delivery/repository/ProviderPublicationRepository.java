package dev.herald.delivery.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/**
 * What a live publisher has done at its platform for each idempotency token ({@code provider_publications}), so
 * a platform without idempotency keys never gets a second publish call whose first may have succeeded.
 */
@ApplicationScoped
public class ProviderPublicationRepository {
    public static final String CALLING = "calling";
    public static final String REFUSED = "refused";
    public static final String PUBLISHED = "published";

    private final Pool pool;

    public ProviderPublicationRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * The token's state before this call: null on its first call, else {@code refused} or {@code published} (as the
     * last answer left it) or {@code calling} (the last call's outcome is unknown). Marks the token {@code calling}
     * unless it is published.
     */
    public record Before(String state, String providerPostId, String url) {
    }

    public Uni<Before> startCall(String token, String platform, Instant now) {
        // Insert first: a concurrent first call waits on the inserted row and then sees it, so only one call is first.
        return pool.withTransaction(connection -> connection.preparedQuery("""
                        insert into provider_publications (token, platform, state, calls, created_at, updated_at)
                        values ($1, $2, 'calling', 1, $3, $3) on conflict (token) do nothing returning token""")
                .execute(SqlParameters.of(token, platform, now))
                .flatMap(inserted -> {
                    if (inserted.rowCount() == 1) {
                        return Uni.createFrom().item(new Before(null, null, null));
                    }
                    return connection.preparedQuery("select state, provider_post_id, url from provider_publications where token = $1 for update")
                            .execute(SqlParameters.of(token))
                            .flatMap(rows -> {
                                var row = rows.iterator().next();
                                Before before = new Before(row.getString("state"), row.getString("provider_post_id"), row.getString("url"));
                                if (PUBLISHED.equals(before.state())) {
                                    return Uni.createFrom().item(before);
                                }
                                return connection.preparedQuery("""
                                                update provider_publications set state = 'calling', calls = calls + 1, updated_at = $2
                                                where token = $1""")
                                        .execute(SqlParameters.of(token, now)).replaceWith(before);
                            });
                }));
    }

    /** The platform published the token's post: later attempts answer it. */
    public Uni<Void> published(String token, String providerPostId, String url, Instant now) {
        return pool.preparedQuery("""
                        update provider_publications set state = 'published', provider_post_id = $2, url = $3, updated_at = $4
                        where token = $1""")
                .execute(SqlParameters.of(token, providerPostId, url, now)).replaceWithVoid();
    }

    /** The platform answered and created nothing: the next attempt may call again. */
    public Uni<Void> refused(String token, Instant now) {
        return pool.preparedQuery("update provider_publications set state = 'refused', updated_at = $2 where token = $1 and state = 'calling'")
                .execute(SqlParameters.of(token, now)).replaceWithVoid();
    }

    /** The token's post when a call published it (its state {@code published}), read only. */
    public Uni<Optional<Before>> publishedPost(String token) {
        return pool.preparedQuery("select state, provider_post_id, url from provider_publications where token = $1 and state = 'published'")
                .execute(SqlParameters.of(token))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return Optional.<Before>empty();
                    }
                    var row = rows.iterator().next();
                    return Optional.of(new Before(row.getString("state"), row.getString("provider_post_id"), row.getString("url")));
                });
    }
}
