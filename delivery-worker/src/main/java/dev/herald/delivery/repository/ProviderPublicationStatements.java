package dev.herald.delivery.repository;

import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/**
 * What a live publisher has done at its platform for each idempotency token ({@code provider_publications}), so
 * a platform without idempotency keys never gets a second publish call whose first may have succeeded.
 */
@ApplicationScoped
public class ProviderPublicationStatements {
    public static final String CALLING = "calling";
    public static final String REFUSED = "refused";
    public static final String PUBLISHED = "published";
    /**
     * The platform is processing what a create call handed it; {@code provider_ref} names it, and later attempts check
     * it.
     */
    public static final String PROCESSING = "processing";

    private static final NamedStatement INSERT_FIRST_CALL = NamedStatement.of("""
            insert into provider_publications (token, platform, state, calls, created_at, updated_at)
            values (:token, :platform, 'calling', 1, :now, :now) on conflict (token) do nothing returning token""");

    private static final NamedStatement LOCK = NamedStatement.of("""
            select state, provider_post_id, url, provider_ref, processing_started_at, checks
            from provider_publications where token = :token for update""");

    private static final NamedStatement COUNT_CHECK = NamedStatement.of("""
            update provider_publications set checks = checks + 1, updated_at = :now
            where token = :token""");

    // A call after a refusal starts afresh: the refused call's reference names nothing to ask about.
    private static final NamedStatement CALL_AGAIN = NamedStatement.of("""
            update provider_publications set state = 'calling', calls = calls + 1, updated_at = :now,
                provider_ref = case when state = 'refused' then null else provider_ref end
            where token = :token""");

    private static final NamedStatement FIND = NamedStatement.of("""
            select state, provider_post_id, url, provider_ref, processing_started_at, checks
            from provider_publications where token = :token""");

    private static final NamedStatement PUBLISHED_AT = NamedStatement.of("""
            update provider_publications set state = 'published', provider_post_id = :provider_post_id, url = :url, updated_at = :now
            where token = :token""");

    private static final NamedStatement REFUSED_AT = NamedStatement.of("""
            update provider_publications set state = 'refused', updated_at = :now
            where token = :token and state in ('calling', 'processing')""");

    private static final NamedStatement PROCESSING_AT = NamedStatement.of("""
            update provider_publications set state = 'processing', provider_ref = :provider_ref, processing_started_at = :now,
                checks = 0, updated_at = :now
            where token = :token and state = 'calling'""");

    private static final NamedStatement REF = NamedStatement.of("""
            update provider_publications set provider_ref = :provider_ref, updated_at = :now
            where token = :token and state = :state""");

    private final Pool pool;

    public ProviderPublicationStatements(Pool pool) {
        this.pool = pool;
    }

    /**
     * The token's state before this call: null on its first call, else {@code refused} or {@code published} (as the
     * last answer left it), {@code calling} (the last call's outcome is unknown) or {@code processing} (with the
     * platform's reference, when processing started and how many checks this one makes, from 1). Marks the token
     * {@code calling} unless it is published or processing; a processing one stays so (a check that breaks off must
     * leave the reference for the next, never a create) and counts the check.
     */
    public record Before(
            String state,
            String providerPostId,
            String url,
            String providerRef,
            Instant processingStartedAt,
            int checks) {}

    public Uni<Before> startCall(String token, String platform, Instant now) {
        // Insert first: a concurrent first call waits on the inserted row and then sees it, so only one call is first.
        return pool.withTransaction(connection -> INSERT_FIRST_CALL
                .parameters()
                .set("token", token)
                .set("platform", platform)
                .set("now", now)
                .execute(connection)
                .flatMap(inserted -> {
                    if (inserted.rowCount() == 1) {
                        return Uni.createFrom().item(new Before(null, null, null, null, null, 0));
                    }
                    return LOCK.parameters()
                            .set("token", token)
                            .execute(connection)
                            .flatMap(rows -> {
                                Before before = before(rows.iterator().next(), 1);
                                if (PUBLISHED.equals(before.state())) {
                                    return Uni.createFrom().item(before);
                                }
                                NamedStatement next = PROCESSING.equals(before.state()) ? COUNT_CHECK : CALL_AGAIN;
                                return next.parameters()
                                        .set("token", token)
                                        .set("now", now)
                                        .execute(connection)
                                        .replaceWith(before);
                            });
                }));
    }

    /** The token's state as it stands, without a call (null when no call was ever made). */
    public Uni<Before> find(String token) {
        return FIND.parameters()
                .set("token", token)
                .execute(pool)
                .map(rows ->
                        rows.rowCount() == 0 ? null : before(rows.iterator().next(), 0));
    }

    /** The row as {@link Before}, {@code checks} counting {@code newChecks} more than the row's. */
    private static Before before(Row row, int newChecks) {
        var started = row.getOffsetDateTime("processing_started_at");
        return new Before(
                row.getString("state"),
                row.getString("provider_post_id"),
                row.getString("url"),
                row.getString("provider_ref"),
                started == null ? null : started.toInstant(),
                row.getInteger("checks") + newChecks);
    }

    /** The platform published the token's post: later attempts answer it. */
    public Uni<Void> published(String token, String providerPostId, String url, Instant now) {
        return PUBLISHED_AT
                .parameters()
                .set("token", token)
                .set("provider_post_id", providerPostId)
                .set("url", url)
                .set("now", now)
                .execute(pool)
                .replaceWithVoid();
    }

    /**
     * The platform answered and created nothing, or what it was processing failed and can never be published: the
     * next attempt may call again.
     */
    public Uni<Void> refused(String token, Instant now) {
        return REFUSED_AT
                .parameters()
                .set("token", token)
                .set("now", now)
                .execute(pool)
                .replaceWithVoid();
    }

    /**
     * The create call was answered with {@code providerRef}, which the platform is still processing: later attempts
     * check it instead of calling again. Only a call this ledger marked {@code calling} gets there.
     */
    public Uni<Void> processing(String token, String providerRef, Instant now) {
        return PROCESSING_AT
                .parameters()
                .set("token", token)
                .set("provider_ref", providerRef)
                .set("now", now)
                .execute(pool)
                .replaceWithVoid();
    }

    /**
     * Replaces a processing token's reference (the mark that a post is being made from what the platform processed,
     * and its removal); a token that left {@code processing} meanwhile is not touched.
     */
    public Uni<Void> processingRef(String token, String providerRef, Instant now) {
        return ref(token, PROCESSING, providerRef, now);
    }

    /**
     * The call in flight got the platform's reference before it finished (TikTok's publish id, answered before any byte
     * of the upload moves): kept with the token still {@code calling}, so that the look after an unknown outcome can ask
     * the platform about it instead of guessing or posting again.
     */
    public Uni<Void> callRef(String token, String providerRef, Instant now) {
        return ref(token, CALLING, providerRef, now);
    }

    private Uni<Void> ref(String token, String state, String providerRef, Instant now) {
        return REF.parameters()
                .set("token", token)
                .set("provider_ref", providerRef)
                .set("now", now)
                .set("state", state)
                .execute(pool)
                .replaceWithVoid();
    }

    /** The token's post when a call published it (its state {@code published}), read only. */
    public Uni<Optional<Before>> publishedPost(String token) {
        return find(token)
                .map(before -> before != null && PUBLISHED.equals(before.state())
                        ? Optional.of(before)
                        : Optional.<Before>empty());
    }
}
