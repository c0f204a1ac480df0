package dev.herald.delivery.repository;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.SqlParameters;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.TargetError;
import dev.herald.common.wire.UsageReservation;
import dev.herald.delivery.model.LeasedDelivery;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code deliveries} table. Every write about a delivery in progress names its lease token: a worker whose
 * lease lapsed (and whose row another worker has claimed since) changes nothing, so one target's outcome is
 * written once whatever the number of workers.
 */
@ApplicationScoped
public class DeliveryRepository {
    /**
     * The clause that answers what {@link #leased(Row)} reads, for a statement that names the table {@code d}.
     * (Appended to text blocks, which drop a line's trailing spaces, so it starts on a line of its own.)
     */
    private static final String RETURNING_LEASED = """

            returning d.post_id, d.account_id, d.workspace_id, d.mode, d.platform, d.account_username, d.reservation_id, d.text,
            d.media_url, d.media_type, d.platform_options::text as platform_options, d.attempts, d.deferrals, d.lease_token,
            d.trace_parent""";

    private final Pool pool;
    private final ObjectMapper mapper;
    private final OutboxWriter outbox;

    public DeliveryRepository(Pool pool, ObjectMapper mapper) {
        this.pool = pool;
        this.mapper = mapper;
        this.outbox = new OutboxWriter(mapper);
    }

    /**
     * Records the event as processed and inserts one {@code publishing} row per delivery of it, leased to the caller
     * until {@code leaseUntil}, in one statement (so in one transaction, without a round trip for BEGIN and COMMIT).
     * A redelivered event inserts nothing; a target that already has a row (the same post handed over again) is left
     * alone; only the rows inserted here are answered. {@code traceParent} is the trace the event came with (or null).
     */
    public Uni<List<LeasedDelivery>> insertLeased(
            PostAcceptedEvent event, String traceParent, Instant now, Instant leaseUntil) {
        Post post = event.post();
        int count = event.deliveries().size();
        String[] accountIds = new String[count];
        String[] platforms = new String[count];
        String[] usernames = new String[count];
        String[] reservationIds = new String[count];
        String[] platformOptions = new String[count];
        for (int i = 0; i < count; i++) {
            PostAcceptedEvent.Delivery delivery = event.deliveries().get(i);
            accountIds[i] = delivery.accountId();
            platforms[i] = delivery.platform().wireName();
            usernames[i] = delivery.accountUsername();
            // A target's publication reservation has a fixed id; an event that leaves it out still names it.
            reservationIds[i] = delivery.reservationId() != null
                    ? delivery.reservationId()
                    : UsageReservation.publicationId(post.id(), delivery.accountId());
            platformOptions[i] =
                    optionsFor(post.platformOptions(), delivery.platform()).toString();
        }
        Post.Media media = post.media();
        return pool.preparedQuery("""
                        with first_time as (
                            insert into processed_events (event_id, processed_at) values ($8::text, $9::timestamptz)
                            on conflict do nothing
                            returning event_id)
                        insert into deliveries as d (post_id, account_id, workspace_id, mode, platform, account_username,
                            reservation_id, text, media_url, media_type, platform_options, status, lease_token, lease_until,
                            source_event_id, created_at, updated_at, trace_parent)
                        select $1::text, t.account_id, $2::text, $3::text, t.platform, t.account_username, t.reservation_id,
                            $4::text, $5::text, $6::text, t.platform_options::jsonb, 'publishing', gen_random_uuid(),
                            $7::timestamptz, $8::text, $9::timestamptz, $9::timestamptz, $15::text
                        from unnest($10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
                            as t(account_id, platform, account_username, reservation_id, platform_options)
                        where exists (select 1 from first_time)
                        on conflict (post_id, account_id) do nothing""" + RETURNING_LEASED)
                .execute(SqlParameters.of(
                        post.id(),
                        event.workspaceId(),
                        event.mode().wireName(),
                        post.text(),
                        media == null ? null : media.url(),
                        media == null ? null : media.type(),
                        leaseUntil,
                        event.eventId(),
                        now,
                        accountIds,
                        platforms,
                        usernames,
                        reservationIds,
                        platformOptions,
                        traceParent))
                .map(this::leasedRows);
    }

    /**
     * Claims up to {@code limit} due deliveries for the caller: pending ones whose time has come, and
     * publishing ones whose lease lapsed (their worker died mid-delivery). Rows another worker is claiming
     * right now are skipped, not waited for, so replicas share the work without blocking each other.
     */
    public Uni<List<LeasedDelivery>> claimDue(Instant now, Instant leaseUntil, int limit) {
        return pool.preparedQuery("""
                        with due as (
                            select post_id, account_id from deliveries
                            where (status = 'pending' and next_attempt_at <= $1) or (status = 'publishing' and lease_until <= $1)
                            order by coalesce(next_attempt_at, lease_until)
                            limit $2
                            for update skip locked)
                        update deliveries d set status = 'publishing', lease_token = gen_random_uuid(), lease_until = $3,
                            next_attempt_at = null, updated_at = $1
                        from due where d.post_id = due.post_id and d.account_id = due.account_id""" + RETURNING_LEASED)
                .execute(SqlParameters.of(now, limit, leaseUntil))
                .map(this::leasedRows);
    }

    /**
     * Counts a provider call about to be made and renews the lease for it (the usage check may have taken a
     * while). Answers the attempt's number, or nothing when the lease was lost.
     */
    public Uni<Optional<Integer>> startAttempt(LeasedDelivery delivery, Instant now, Instant leaseUntil) {
        return pool.preparedQuery("""
                        update deliveries set attempts = attempts + 1, deferrals = 0, lease_until = $4, updated_at = $5
                        where post_id = $1 and account_id = $2 and lease_token = $3
                        returning attempts""")
                .execute(SqlParameters.of(
                        delivery.postId(), delivery.accountId(), delivery.leaseToken(), leaseUntil, now))
                .map(rows -> rows.rowCount() == 0
                        ? Optional.<Integer>empty()
                        : Optional.of(rows.iterator().next().getInteger("attempts")));
    }

    /** Extends the lease of a delivery whose call is still running (an upload); false when the lease was lost. */
    public Uni<Boolean> renewLease(LeasedDelivery delivery, Instant leaseUntil) {
        return pool.preparedQuery("""
                        update deliveries set lease_until = $4
                        where post_id = $1 and account_id = $2 and lease_token = $3 and status = 'publishing'""")
                .execute(SqlParameters.of(delivery.postId(), delivery.accountId(), delivery.leaseToken(), leaseUntil))
                .map(rows -> rows.rowCount() > 0);
    }

    /**
     * Makes the delivery final ({@code published} with the provider's post, or {@code failed} with the error) and
     * appends its {@code announcement} to the outbox, in one statement: the event exists exactly when the write took
     * effect. False when the lease was lost: then neither is written.
     */
    public Uni<Boolean> complete(
            LeasedDelivery delivery,
            String status,
            String providerPostId,
            String url,
            TargetError error,
            Instant now,
            Instant reconcileAt,
            OutboxWriter.Entry announcement) {
        return pool.preparedQuery("""
                        with changed as (
                            update deliveries set status = $4, provider_post_id = $5, url = $6, last_error = $7::text::jsonb,
                                completed_at = $8, updated_at = $8, lease_token = null, lease_until = null,
                                next_attempt_at = null, reconcile_at = $9
                            where post_id = $1 and account_id = $2 and lease_token = $3
                            returning post_id)
                        insert into outbox (event_id, topic, message_key, payload, trace_parent)
                        select $10, $11, $12, $13::text::jsonb, $14 from changed""")
                .execute(outbox.bind(
                        SqlParameters.of(
                                delivery.postId(),
                                delivery.accountId(),
                                delivery.leaseToken(),
                                status,
                                providerPostId,
                                url,
                                json(error),
                                now,
                                reconcileAt),
                        announcement))
                .map(rows -> rows.rowCount() > 0);
    }

    /** An uncertain delivery the reconciler holds, since when it is uncertain, and the looks made so far (this one included). */
    public record UncertainDelivery(LeasedDelivery delivery, Instant uncertainSince, int checks) {}

    /**
     * Claims up to {@code limit} uncertain deliveries whose next look is due, for the caller until {@code leaseUntil}
     * (a reconciler that dies mid-look leaves them due again then). Each claim gets a new token, which
     * {@link #settle} and {@link #reconcileLater} must present; rows another reconciler is claiming are skipped.
     */
    public Uni<List<UncertainDelivery>> claimUncertain(Instant now, Instant leaseUntil, int limit) {
        return pool.preparedQuery("""
                        with due as (
                            select post_id, account_id from deliveries
                            where status = 'uncertain' and reconcile_at <= $1
                            order by reconcile_at
                            limit $2
                            for update skip locked)
                        update deliveries d set reconcile_token = gen_random_uuid(), reconcile_at = $3,
                            reconcile_checks = d.reconcile_checks + 1, updated_at = $1
                        from due where d.post_id = due.post_id and d.account_id = due.account_id
                        returning d.post_id, d.account_id, d.workspace_id, d.mode, d.platform, d.account_username, d.reservation_id,
                            d.text, d.media_url, d.media_type, d.platform_options::text as platform_options, d.attempts, d.deferrals,
                            d.reconcile_token as lease_token, d.trace_parent, d.completed_at, d.reconcile_checks""")
                .execute(SqlParameters.of(now, limit, leaseUntil))
                .map(rows -> {
                    List<UncertainDelivery> claimed = new ArrayList<>(rows.rowCount());
                    for (Row row : rows) {
                        // An uncertain row always has completed_at (the table's check): when it became uncertain.
                        claimed.add(new UncertainDelivery(
                                leased(row),
                                row.getOffsetDateTime("completed_at").toInstant(),
                                row.getInteger("reconcile_checks")));
                    }
                    return claimed;
                });
    }

    /**
     * Settles an uncertain delivery ({@code published} or {@code failed}) and appends its {@code announcement} to the
     * outbox, in one statement, if the caller's claim still holds. False otherwise: then neither is written.
     */
    public Uni<Boolean> settle(
            LeasedDelivery claimed,
            String status,
            String providerPostId,
            String url,
            TargetError error,
            Instant now,
            OutboxWriter.Entry announcement) {
        return pool.preparedQuery("""
                        with changed as (
                            update deliveries set status = $4, provider_post_id = $5, url = $6, last_error = $7::text::jsonb,
                                completed_at = $8, updated_at = $8, reconcile_token = null, reconcile_at = null
                            where post_id = $1 and account_id = $2 and status = 'uncertain' and reconcile_token = $3
                            returning post_id)
                        insert into outbox (event_id, topic, message_key, payload, trace_parent)
                        select $9, $10, $11, $12::text::jsonb, $13 from changed""")
                .execute(outbox.bind(
                        SqlParameters.of(
                                claimed.postId(),
                                claimed.accountId(),
                                claimed.leaseToken(),
                                status,
                                providerPostId,
                                url,
                                json(error),
                                now),
                        announcement))
                .map(rows -> rows.rowCount() > 0);
    }

    /** The platform could not say yet: the uncertain delivery is looked at again at {@code nextLookAt}. */
    public Uni<Boolean> reconcileLater(LeasedDelivery claimed, Instant nextLookAt, Instant now) {
        return pool.preparedQuery("""
                        update deliveries set reconcile_at = $4, reconcile_token = null, updated_at = $5
                        where post_id = $1 and account_id = $2 and status = 'uncertain' and reconcile_token = $3""")
                .execute(SqlParameters.of(claimed.postId(), claimed.accountId(), claimed.leaseToken(), nextLookAt, now))
                .map(rows -> rows.rowCount() > 0);
    }

    /** Gives the lease back after a retryable failure; the delivery is due again at {@code nextAttemptAt}. */
    public Uni<Boolean> scheduleRetry(LeasedDelivery delivery, TargetError error, Instant nextAttemptAt, Instant now) {
        return pool.preparedQuery("""
                        update deliveries set status = 'pending', last_error = $4::text::jsonb, next_attempt_at = $5,
                            updated_at = $6, lease_token = null, lease_until = null
                        where post_id = $1 and account_id = $2 and lease_token = $3""")
                .execute(SqlParameters.of(
                        delivery.postId(),
                        delivery.accountId(),
                        delivery.leaseToken(),
                        json(error),
                        nextAttemptAt,
                        now))
                .map(rows -> rows.rowCount() > 0);
    }

    /**
     * Gives the lease back without an attempt (a Herald service could not be asked: usage-service whether the delivery
     * may go ahead, or accounts-service for the account's access once {@link #startAttempt} had counted the attempt,
     * which {@code giveBackAttempt} takes back): due again at {@code nextAttemptAt}, after {@code deferrals}
     * consecutive postponements.
     */
    public Uni<Boolean> defer(
            LeasedDelivery delivery, int deferrals, boolean giveBackAttempt, Instant nextAttemptAt, Instant now) {
        return pool.preparedQuery("""
                        update deliveries set status = 'pending', deferrals = $4, next_attempt_at = $5, updated_at = $6,
                            attempts = greatest(attempts - $7, 0), lease_token = null, lease_until = null
                        where post_id = $1 and account_id = $2 and lease_token = $3""")
                .execute(SqlParameters.of(
                        delivery.postId(),
                        delivery.accountId(),
                        delivery.leaseToken(),
                        deferrals,
                        nextAttemptAt,
                        now,
                        giveBackAttempt ? 1 : 0))
                .map(rows -> rows.rowCount() > 0);
    }

    /**
     * Gives the lease back and the attempt {@link #startAttempt} counted: the publisher answered that nothing is
     * final yet ({@code PublishOutcome.later}). Due again at {@code nextCheckAt}; the last error stays as it was.
     */
    public Uni<Boolean> checkLater(LeasedDelivery delivery, Instant nextCheckAt, Instant now) {
        return pool.preparedQuery("""
                        update deliveries set status = 'pending', attempts = greatest(attempts - 1, 0), next_attempt_at = $4,
                            updated_at = $5, lease_token = null, lease_until = null
                        where post_id = $1 and account_id = $2 and lease_token = $3""")
                .execute(SqlParameters.of(
                        delivery.postId(), delivery.accountId(), delivery.leaseToken(), nextCheckAt, now))
                .map(rows -> rows.rowCount() > 0);
    }

    /** The post's platform_options entry for one platform, or {@code {}}. */
    private ObjectNode optionsFor(ObjectNode platformOptions, Platform platform) {
        JsonNode options = platformOptions == null ? null : platformOptions.get(platform.wireName());
        return options instanceof ObjectNode object ? object : mapper.createObjectNode();
    }

    private String json(TargetError error) {
        if (error == null) {
            return null;
        }
        try {
            return mapper.writeValueAsString(error);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a target error cannot be serialized", e);
        }
    }

    private List<LeasedDelivery> leasedRows(RowSet<Row> rows) {
        List<LeasedDelivery> leased = new ArrayList<>(rows.rowCount());
        for (Row row : rows) {
            leased.add(leased(row));
        }
        return leased;
    }

    private LeasedDelivery leased(Row row) {
        String mediaUrl = row.getString("media_url");
        Post.Media media = mediaUrl == null ? null : new Post.Media(mediaUrl, row.getString("media_type"));
        ObjectNode platformOptions;
        try {
            platformOptions = (ObjectNode) mapper.readTree(row.getString("platform_options"));
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("stored platform_options are not a JSON object", e);
        }
        return new LeasedDelivery(
                row.getString("post_id"),
                row.getString("account_id"),
                row.getString("workspace_id"),
                Mode.fromWire(row.getString("mode")).orElseThrow(),
                Platform.fromWire(row.getString("platform")).orElseThrow(),
                row.getString("account_username"),
                row.getString("reservation_id"),
                row.getString("text"),
                media,
                platformOptions,
                row.getInteger("attempts"),
                row.getInteger("deferrals"),
                row.getUUID("lease_token"),
                row.getString("trace_parent"));
    }

    /**
     * Deletes up to {@code limit} published or failed deliveries that completed before {@code cutoff}, oldest first,
     * and what the sandbox, the live publishers' ledger and YouTube's upload sessions remember of their calls (keyed by
     * {@code PublishRequest.tokenOf}: post id, colon, account id); how many deliveries. Pending, publishing and
     * uncertain rows are never touched, however old. {@code SKIP LOCKED}: replicas purging at once split the work.
     */
    public Uni<Integer> deleteFinalBefore(Instant cutoff, int limit) {
        return pool.preparedQuery("""
                        with gone as (
                            delete from deliveries where (post_id, account_id) in (
                                select post_id, account_id from deliveries
                                where status in ('published', 'failed') and completed_at < $1
                                order by completed_at limit $2 for update skip locked)
                            returning post_id || ':' || account_id as token),
                        sandbox as (delete from sandbox_publications where token in (select token from gone)),
                        ledger as (delete from provider_publications where token in (select token from gone)),
                        uploads as (delete from youtube_upload_sessions where token in (select token from gone))
                        select count(*)::integer as deleted from gone""")
                .execute(SqlParameters.of(cutoff, limit))
                .map(rows -> rows.iterator().next().getInteger("deleted"));
    }
}
