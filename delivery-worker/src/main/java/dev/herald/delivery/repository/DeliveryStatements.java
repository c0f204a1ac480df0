package dev.herald.delivery.repository;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.messaging.ProcessedEvents;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.persistence.NamedStatement;
import dev.herald.common.persistence.StatementBatcher;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.TargetError;
import dev.herald.common.wire.UsageReservation;
import dev.herald.delivery.model.ClaimWindow;
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
import java.util.UUID;

/**
 * The {@code deliveries} table, on the Vert.x pool: each write is one statement, its own transaction. Every write
 * about a delivery in progress names its lease token: a worker whose lease lapsed (and whose row another worker has
 * claimed since) changes nothing, so one target's outcome is written once whatever the number of workers. Longer than
 * 300 lines because it is the one place that writes deliveries: the lease protocol is read, and kept, in one class.
 */
@ApplicationScoped
public class DeliveryStatements {
    private static final TypeReference<List<Post.Media>> MEDIA_ITEMS = new TypeReference<>() {};
    /**
     * The clause that answers what {@link #leased(Row)} reads, for a statement that names the table {@code d}.
     * (Appended to text blocks, which drop a line's trailing spaces, so it starts on a line of its own.) Whether the
     * account is held comes with the claim, two primary-key reads of the small {@code held_accounts}, so the hot path
     * pays no extra round trip for it.
     */
    private static final String RETURNING_LEASED = """

            returning d.post_id, d.account_id, d.workspace_id, d.mode, d.platform, d.account_username, d.reservation_id, d.text,
            d.media::text as media, d.platform_options::text as platform_options, d.attempts, d.deferrals, d.lease_token,
            d.trace_parent, d.due_at,
            exists (select 1 from held_accounts h where h.account_id = d.account_id) as account_held,
            (select h.reconnect_url from held_accounts h where h.account_id = d.account_id) as held_reconnect_url""";

    /** The deliveries of a batch of events: each target row names its event, whose post fields it joins. */
    private static final NamedStatement INSERT_LEASED = NamedStatement.of(
            """
            with event as (
                select * from unnest(:event_ids::text[], :post_ids::text[], :workspace_ids::text[], :modes::text[],
                        :texts::text[], :media::text[], :trace_parents::text[], :due_at::timestamptz[])
                    as e(event_id, post_id, workspace_id, mode, text, media, trace_parent, due_at)),
            first_time as (%s)
            insert into deliveries as d (post_id, account_id, workspace_id, mode, platform, account_username,
                reservation_id, text, media, platform_options, status, lease_token, lease_until,
                source_event_id, created_at, updated_at, trace_parent, due_at, next_attempt_at)
            select e.post_id, t.account_id, e.workspace_id, e.mode, t.platform, t.account_username,
                t.reservation_id, e.text, e.media::jsonb, t.platform_options::jsonb,
                case when t.position <= :places then 'publishing' else 'pending' end,
                case when t.position <= :places then gen_random_uuid() end,
                case when t.position <= :places then :lease_until::timestamptz end,
                e.event_id, :now::timestamptz, :now::timestamptz, e.trace_parent, e.due_at,
                case when t.position > :places then
                    case when exists (select 1 from held_accounts h where h.account_id = t.account_id)
                        then :now::timestamptz else least(:now::timestamptz, e.due_at) end end
            from unnest(:target_event_ids::text[], :account_ids::text[], :platforms::text[], :usernames::text[],
                    :reservation_ids::text[], :platform_options::text[])
                with ordinality as t(event_id, account_id, platform, account_username, reservation_id, platform_options,
                    position)
            join event e on e.event_id = t.event_id
            where t.event_id in (select event_id from first_time)
            on conflict (post_id, account_id) do nothing""".formatted(ProcessedEvents.recordNew("select event_id from event")) + RETURNING_LEASED);

    private static final NamedStatement CLAIM_DUE = NamedStatement.of("""
            with due as (
                select post_id, account_id from deliveries
                where (status = 'pending' and next_attempt_at <= :pending_up_to and next_attempt_at > :pending_after)
                    or (status = 'publishing' and lease_until <= :lapsed_up_to and lease_until > :lapsed_after
                        and overdue_at is null)
                    or (:overdue::boolean and status = 'publishing' and overdue_at is not null and lease_until <= :now)
                order by coalesce(next_attempt_at, lease_until)
                limit :limit
                for update skip locked)
            update deliveries d set status = 'publishing', lease_token = gen_random_uuid(), lease_until = :lease_until,
                next_attempt_at = null, updated_at = :now,
                overdue_at = case when :overdue::boolean then coalesce(d.overdue_at, :now) end
            from due where d.post_id = due.post_id and d.account_id = due.account_id""" + RETURNING_LEASED);

    /** Starts a batch of attempts ({@link #startAttempt}); answers the positions (from 1) of those it started. */
    private static final NamedStatement START_ATTEMPT = NamedStatement.of("""
            with item as (
                select * from unnest(:post_ids::text[], :account_ids::text[], :lease_tokens::uuid[],
                        :lease_until::timestamptz[], :now::timestamptz[])
                    with ordinality as i(post_id, account_id, lease_token, lease_until, now, position))
            update deliveries d set attempts = d.attempts + 1, deferrals = 0, lease_until = i.lease_until,
                updated_at = i.now, held_since = null
            from item i
            where d.post_id = i.post_id and d.account_id = i.account_id and d.lease_token = i.lease_token
            returning i.position, d.attempts""");

    private static final NamedStatement RENEW_LEASE = NamedStatement.of("""
            update deliveries set lease_until = :lease_until
            where post_id = :post_id and account_id = :account_id and lease_token = :lease_token
                and status = 'publishing'""");

    /** Completes a batch of deliveries ({@link #complete}); answers the positions (from 1) of those it changed. */
    private static final NamedStatement COMPLETE = NamedStatement.of(
            """
            with item as (
                select * from unnest(:post_ids::text[], :account_ids::text[], :lease_tokens::uuid[], :statuses::text[],
                        :provider_post_ids::text[], :urls::text[], :errors::text[], :completed_at::timestamptz[],
                        :reconcile_at::timestamptz[], :announced_ids::text[])
                    with ordinality as i(post_id, account_id, lease_token, status, provider_post_id, url, error,
                        completed_at, reconcile_at, announced_id, position)),
            changed as (
                update deliveries d set status = i.status, provider_post_id = i.provider_post_id, url = i.url,
                    last_error = i.error::jsonb, completed_at = i.completed_at, updated_at = i.completed_at,
                    lease_token = null, lease_until = null, next_attempt_at = null, reconcile_at = i.reconcile_at
                from item i
                where d.post_id = i.post_id and d.account_id = i.account_id and d.lease_token = i.lease_token
                returning i.position, i.announced_id),
            recorded as (%s)
            select position from changed""".formatted(OutboxWriter.insertAllWhen("e.event_id in (select announced_id from changed)")));

    /** Attempts started, or deliveries completed, by one statement at most ({@link StatementBatcher}). */
    static final int MAX_PER_STATEMENT = 100;

    private static final NamedStatement CLAIM_UNCERTAIN = NamedStatement.of("""
            with due as (
                select post_id, account_id from deliveries
                where status = 'uncertain' and reconcile_at <= :now
                order by reconcile_at
                limit :limit
                for update skip locked)
            update deliveries d set reconcile_token = gen_random_uuid(), reconcile_at = :lease_until,
                reconcile_checks = d.reconcile_checks + 1, updated_at = :now
            from due where d.post_id = due.post_id and d.account_id = due.account_id
            returning d.post_id, d.account_id, d.workspace_id, d.mode, d.platform, d.account_username, d.reservation_id,
                d.text, d.media::text as media, d.platform_options::text as platform_options, d.attempts, d.deferrals,
                d.reconcile_token as lease_token, d.trace_parent, d.completed_at, d.reconcile_checks, d.due_at,
                false as account_held, null::text as held_reconnect_url""");

    private static final NamedStatement SETTLE =
            NamedStatement.of("""
            with changed as (
                update deliveries set status = :status, provider_post_id = :provider_post_id, url = :url,
                    last_error = :error::text::jsonb, completed_at = :now, updated_at = :now, reconcile_token = null,
                    reconcile_at = null
                where post_id = :post_id and account_id = :account_id and status = 'uncertain'
                    and reconcile_token = :reconcile_token
                returning post_id)
            %s""".formatted(OutboxWriter.insertOnePerRowOf("changed")));

    private static final NamedStatement RECONCILE_LATER = NamedStatement.of("""
            update deliveries set reconcile_at = :next_look_at, reconcile_token = null, updated_at = :now
            where post_id = :post_id and account_id = :account_id and status = 'uncertain'
                and reconcile_token = :reconcile_token""");

    private static final NamedStatement SCHEDULE_RETRY = NamedStatement.of("""
            update deliveries set status = 'pending', last_error = :error::text::jsonb,
                next_attempt_at = :next_attempt_at, updated_at = :now, lease_token = null, lease_until = null
            where post_id = :post_id and account_id = :account_id and lease_token = :lease_token""");

    private static final NamedStatement DEFER = NamedStatement.of("""
            update deliveries set status = 'pending', deferrals = :deferrals, next_attempt_at = :next_attempt_at,
                updated_at = :now, attempts = greatest(attempts - :given_back_attempts, 0), lease_token = null,
                lease_until = null
            where post_id = :post_id and account_id = :account_id and lease_token = :lease_token""");

    /**
     * The first hold of a delivery also appends its {@code target.completed} with status {@code queued} (every CTE
     * reads the row as it was before the statement, so {@code before} tells a first hold from a later look).
     */
    private static final NamedStatement HOLD =
            NamedStatement.of("""
            with before as (
                select held_since from deliveries
                where post_id = :post_id and account_id = :account_id and lease_token = :lease_token),
            changed as (
                update deliveries set status = 'pending', next_attempt_at = :next_attempt_at, updated_at = :now,
                    held_since = coalesce(held_since, :now), last_error = :error::text::jsonb,
                    attempts = greatest(attempts - :given_back_attempts, 0), lease_token = null, lease_until = null
                where post_id = :post_id and account_id = :account_id and lease_token = :lease_token
                returning post_id),
            first_hold as (
                select changed.post_id from changed, before where before.held_since is null),
            announced as (
                %s)
            select count(*)::integer as held from changed""".formatted(OutboxWriter.insertOnePerRowOf("first_hold")));

    private static final NamedStatement CHECK_LATER = NamedStatement.of("""
            update deliveries set status = 'pending', attempts = greatest(attempts - 1, 0),
                next_attempt_at = :next_check_at, updated_at = :now, lease_token = null, lease_until = null
            where post_id = :post_id and account_id = :account_id and lease_token = :lease_token""");

    private static final NamedStatement DELETE_FINAL_BEFORE = NamedStatement.of("""
            with gone as (
                delete from deliveries where (post_id, account_id) in (
                    select post_id, account_id from deliveries
                    where status in ('published', 'failed') and completed_at < :cutoff
                    order by completed_at limit :limit for update skip locked)
                returning post_id || ':' || account_id as token),
            sandbox as (delete from sandbox_publications where token in (select token from gone)),
            ledger as (delete from provider_publications where token in (select token from gone)),
            uploads as (delete from youtube_upload_sessions where token in (select token from gone))
            select count(*)::integer as deleted from gone""");

    private final Pool pool;
    private final ObjectMapper mapper;
    private final OutboxWriter outbox;
    // Attempts starting, and deliveries completing, while a statement of theirs is in flight go together in the
    // next one: under load one commit serves many.
    private final StatementBatcher<AttemptStart, Optional<Integer>> attemptStarts =
            StatementBatcher.of(MAX_PER_STATEMENT, this::startAttempts);
    private final StatementBatcher<Completion, Boolean> completions =
            StatementBatcher.of(MAX_PER_STATEMENT, this::completeAll);

    /** A post handed to delivery, with the trace its record came with ({@code traceparent}, or null). */
    public record HandedOver(PostAcceptedEvent event, String traceParent) {}

    public DeliveryStatements(Pool pool, ObjectMapper mapper) {
        this.pool = pool;
        this.mapper = mapper;
        this.outbox = new OutboxWriter(mapper);
    }

    /**
     * Records the events as processed and inserts one row per delivery of each, in one statement (so in one
     * transaction, without a round trip for BEGIN and COMMIT): a batch of {@code post.accepted} costs one statement
     * however many posts it hands over. The first {@code places} rows are {@code publishing}, leased to the caller until
     * {@code leaseUntil}, and answered, for the caller to attempt at once; the others are {@code pending} for the claim
     * loop to take as places free up (a burst of handovers must not start more attempts than the worker runs at once).
     * A pending row is due when its post fell due (at the latest now), so one handed over too late lands in the
     * watchdog's window as {@code StuckDeliveryRule.lateAtIntake} says of a started one; a held account's is due now,
     * its attempt then holding it as it would have at once. An event recorded before (a redelivery) inserts nothing; a
     * target that already has a row (the same post handed over again) is left alone. The events' ids must be distinct.
     */
    public Uni<List<LeasedDelivery>> insertLeased(
            List<HandedOver> handedOver, int places, Instant now, Instant leaseUntil) {
        int events = handedOver.size();
        String[] eventIds = new String[events];
        String[] postIds = new String[events];
        String[] workspaceIds = new String[events];
        String[] modes = new String[events];
        String[] texts = new String[events];
        String[] media = new String[events];
        String[] traceParents = new String[events];
        Instant[] dueAt = new Instant[events];
        List<String> targetEventIds = new ArrayList<>();
        List<String> accountIds = new ArrayList<>();
        List<String> platforms = new ArrayList<>();
        List<String> usernames = new ArrayList<>();
        List<String> reservationIds = new ArrayList<>();
        List<String> platformOptions = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            PostAcceptedEvent event = handedOver.get(i).event();
            Post post = event.post();
            eventIds[i] = event.eventId();
            postIds[i] = post.id();
            workspaceIds[i] = event.workspaceId();
            modes[i] = event.mode().wireName();
            texts[i] = post.text();
            media[i] = json(post.media() == null ? List.of() : post.media().items());
            traceParents[i] = handedOver.get(i).traceParent();
            dueAt[i] = dueAt(post, now);
            for (PostAcceptedEvent.Delivery delivery : event.deliveries()) {
                targetEventIds.add(event.eventId());
                accountIds.add(delivery.accountId());
                platforms.add(delivery.platform().wireName());
                usernames.add(delivery.accountUsername());
                // A target's publication reservation has a fixed id; an event that leaves it out still names it.
                reservationIds.add(
                        delivery.reservationId() != null
                                ? delivery.reservationId()
                                : UsageReservation.publicationId(post.id(), delivery.accountId()));
                platformOptions.add(
                        optionsFor(post.platformOptions(), delivery.platform()).toString());
            }
        }
        return INSERT_LEASED
                .parameters()
                .set("event_ids", eventIds)
                .set("post_ids", postIds)
                .set("workspace_ids", workspaceIds)
                .set("modes", modes)
                .set("texts", texts)
                .set("media", media)
                .set("trace_parents", traceParents)
                .set("due_at", dueAt)
                .set("lease_until", leaseUntil)
                .set("places", places)
                .set("now", now)
                .set("target_event_ids", targetEventIds.toArray(String[]::new))
                .set("account_ids", accountIds.toArray(String[]::new))
                .set("platforms", platforms.toArray(String[]::new))
                .set("usernames", usernames.toArray(String[]::new))
                .set("reservation_ids", reservationIds.toArray(String[]::new))
                .set("platform_options", platformOptions.toArray(String[]::new))
                .execute(pool)
                .map(rows -> leasedRows(rows).stream()
                        .filter(delivery -> delivery.leaseToken() != null)
                        .toList());
    }

    /**
     * Claims up to {@code limit} due deliveries for the caller: pending ones whose time has come, and
     * publishing ones whose lease lapsed (their worker died mid-delivery). Rows another worker is claiming
     * right now are skipped, not waited for, so replicas share the work without blocking each other.
     */
    public Uni<List<LeasedDelivery>> claimDue(Instant now, Instant leaseUntil, int limit) {
        return claim(ClaimWindow.upTo(now), now, leaseUntil, limit);
    }

    /**
     * The same for the deliveries in {@code window} only: the claim loop takes those on time, the watchdog the overdue
     * ones ({@code StuckDeliveryRule}). A watchdog's claim marks the row {@code overdue_at}: the claim loop never takes it
     * again, and the watchdog takes it back once its lease lapses (a watchdog that died while settling it).
     */
    public Uni<List<LeasedDelivery>> claim(ClaimWindow window, Instant now, Instant leaseUntil, int limit) {
        return CLAIM_DUE
                .parameters()
                .set("now", now)
                .set("pending_after", window.pendingAfter())
                .set("pending_up_to", window.pendingUpTo())
                .set("lapsed_after", window.lapsedAfter())
                .set("lapsed_up_to", window.lapsedUpTo())
                .set("overdue", window.overdue())
                .set("limit", limit)
                .set("lease_until", leaseUntil)
                .execute(pool)
                .map(this::leasedRows);
    }

    /**
     * Counts a provider call about to be made and renews the lease for it (the usage check may have taken a
     * while). Answers the attempt's number, or nothing when the lease was lost.
     */
    public Uni<Optional<Integer>> startAttempt(LeasedDelivery delivery, Instant now, Instant leaseUntil) {
        return attemptStarts.submit(new AttemptStart(delivery, now, leaseUntil));
    }

    /** An attempt about to be made: when ({@code now}), and its lease's new end. */
    private record AttemptStart(LeasedDelivery delivery, Instant now, Instant leaseUntil) {}

    private Uni<List<Optional<Integer>>> startAttempts(List<AttemptStart> batch) {
        int count = batch.size();
        String[] postIds = new String[count];
        String[] accountIds = new String[count];
        UUID[] leaseTokens = new UUID[count];
        Instant[] leaseUntil = new Instant[count];
        Instant[] now = new Instant[count];
        for (int i = 0; i < count; i++) {
            AttemptStart start = batch.get(i);
            postIds[i] = start.delivery().postId();
            accountIds[i] = start.delivery().accountId();
            leaseTokens[i] = start.delivery().leaseToken();
            leaseUntil[i] = start.leaseUntil();
            now[i] = start.now();
        }
        return START_ATTEMPT
                .parameters()
                .set("post_ids", postIds)
                .set("account_ids", accountIds)
                .set("lease_tokens", leaseTokens)
                .set("lease_until", leaseUntil)
                .set("now", now)
                .execute(pool)
                .map(rows -> NamedStatement.answersByPosition(
                        rows, count, row -> Optional.of(row.getInteger("attempts")), Optional.empty()));
    }

    /** Extends the lease of a delivery whose call is still running (an upload); false when the lease was lost. */
    public Uni<Boolean> renewLease(LeasedDelivery delivery, Instant leaseUntil) {
        return RENEW_LEASE
                .parameters()
                .set("post_id", delivery.postId())
                .set("account_id", delivery.accountId())
                .set("lease_token", delivery.leaseToken())
                .set("lease_until", leaseUntil)
                .execute(pool)
                .map(rows -> rows.rowCount() > 0);
    }

    /** A delivery made final: its outcome, when ({@code now}), and the {@code target.completed} that announces it. */
    public record Completion(
            LeasedDelivery delivery,
            String status,
            String providerPostId,
            String url,
            TargetError error,
            Instant now,
            Instant reconcileAt,
            OutboxWriter.Entry announcement) {}

    /**
     * Makes the delivery final ({@code published} with the provider's post, or {@code failed} with the error) and
     * appends its {@code announcement} to the outbox, in one statement: the event exists exactly when the write took
     * effect. False when the lease was lost: then neither is written. Completions made while another statement of
     * them is in flight go together in the next one ({@link StatementBatcher}): under load one commit serves many.
     */
    public Uni<Boolean> complete(Completion completion) {
        return completions.submit(completion);
    }

    private Uni<List<Boolean>> completeAll(List<Completion> batch) {
        int count = batch.size();
        String[] postIds = new String[count];
        String[] accountIds = new String[count];
        UUID[] leaseTokens = new UUID[count];
        String[] statuses = new String[count];
        String[] providerPostIds = new String[count];
        String[] urls = new String[count];
        String[] errors = new String[count];
        Instant[] completedAt = new Instant[count];
        Instant[] reconcileAt = new Instant[count];
        String[] announcedIds = new String[count];
        List<OutboxWriter.Entry> announcements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Completion completion = batch.get(i);
            postIds[i] = completion.delivery().postId();
            accountIds[i] = completion.delivery().accountId();
            leaseTokens[i] = completion.delivery().leaseToken();
            statuses[i] = completion.status();
            providerPostIds[i] = completion.providerPostId();
            urls[i] = completion.url();
            errors[i] = json(completion.error());
            completedAt[i] = completion.now();
            reconcileAt[i] = completion.reconcileAt();
            if (completion.announcement() != null) {
                announcedIds[i] = completion.announcement().eventId();
                announcements.add(completion.announcement());
            }
        }
        NamedStatement.Parameters parameters = COMPLETE.parameters()
                .set("post_ids", postIds)
                .set("account_ids", accountIds)
                .set("lease_tokens", leaseTokens)
                .set("statuses", statuses)
                .set("provider_post_ids", providerPostIds)
                .set("urls", urls)
                .set("errors", errors)
                .set("completed_at", completedAt)
                .set("reconcile_at", reconcileAt)
                .set("announced_ids", announcedIds);
        return outbox.bindAll(parameters, announcements)
                .execute(pool)
                .map(rows -> NamedStatement.answersByPosition(rows, count, row -> true, false));
    }

    /** An uncertain delivery the reconciler holds, since when it is uncertain, and the looks made so far (this one included). */
    public record UncertainDelivery(LeasedDelivery delivery, Instant uncertainSince, int checks) {}

    /**
     * Claims up to {@code limit} uncertain deliveries whose next look is due, for the caller until {@code leaseUntil}
     * (a reconciler that dies mid-look leaves them due again then). Each claim gets a new token, which
     * {@link #settle} and {@link #reconcileLater} must present; rows another reconciler is claiming are skipped.
     */
    public Uni<List<UncertainDelivery>> claimUncertain(Instant now, Instant leaseUntil, int limit) {
        return CLAIM_UNCERTAIN
                .parameters()
                .set("now", now)
                .set("limit", limit)
                .set("lease_until", leaseUntil)
                .execute(pool)
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
        NamedStatement.Parameters parameters = SETTLE.parameters()
                .set("post_id", claimed.postId())
                .set("account_id", claimed.accountId())
                .set("reconcile_token", claimed.leaseToken())
                .set("status", status)
                .set("provider_post_id", providerPostId)
                .set("url", url)
                .set("error", json(error))
                .set("now", now);
        return outbox.bind(parameters, announcement).execute(pool).map(rows -> rows.rowCount() > 0);
    }

    /** The platform could not say yet: the uncertain delivery is looked at again at {@code nextLookAt}. */
    public Uni<Boolean> reconcileLater(LeasedDelivery claimed, Instant nextLookAt, Instant now) {
        return RECONCILE_LATER
                .parameters()
                .set("post_id", claimed.postId())
                .set("account_id", claimed.accountId())
                .set("reconcile_token", claimed.leaseToken())
                .set("next_look_at", nextLookAt)
                .set("now", now)
                .execute(pool)
                .map(rows -> rows.rowCount() > 0);
    }

    /** Gives the lease back after a retryable failure; the delivery is due again at {@code nextAttemptAt}. */
    public Uni<Boolean> scheduleRetry(LeasedDelivery delivery, TargetError error, Instant nextAttemptAt, Instant now) {
        return SCHEDULE_RETRY
                .parameters()
                .set("post_id", delivery.postId())
                .set("account_id", delivery.accountId())
                .set("lease_token", delivery.leaseToken())
                .set("error", json(error))
                .set("next_attempt_at", nextAttemptAt)
                .set("now", now)
                .execute(pool)
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
        return DEFER.parameters()
                .set("post_id", delivery.postId())
                .set("account_id", delivery.accountId())
                .set("lease_token", delivery.leaseToken())
                .set("deferrals", deferrals)
                .set("next_attempt_at", nextAttemptAt)
                .set("now", now)
                .set("given_back_attempts", giveBackAttempt ? 1 : 0)
                .execute(pool)
                .map(rows -> rows.rowCount() > 0);
    }

    /**
     * Gives the lease back of a delivery whose account needs re-authorization, without an attempt ({@code
     * giveBackAttempt}: the one {@link #startAttempt} counted before accounts-service refused the access): pending,
     * marked held (so a reconnection makes it due at once), due again at {@code nextAttemptAt}; {@code reason} is kept
     * as its last error (it carries the reconnect link when accounts-service gave one). The first hold also appends
     * {@code announcement}, the target's {@code queued} target.completed, so posts-service shows it waiting.
     */
    public Uni<Boolean> hold(
            LeasedDelivery delivery,
            TargetError reason,
            boolean giveBackAttempt,
            Instant nextAttemptAt,
            Instant now,
            OutboxWriter.Entry announcement) {
        NamedStatement.Parameters parameters = HOLD.parameters()
                .set("post_id", delivery.postId())
                .set("account_id", delivery.accountId())
                .set("lease_token", delivery.leaseToken())
                .set("error", json(reason))
                .set("next_attempt_at", nextAttemptAt)
                .set("now", now)
                .set("given_back_attempts", giveBackAttempt ? 1 : 0);
        return outbox.bind(parameters, announcement)
                .execute(pool)
                .map(rows -> rows.iterator().next().getInteger("held") > 0);
    }

    /**
     * Gives the lease back and the attempt {@link #startAttempt} counted: the publisher answered that nothing is
     * final yet ({@code PublishOutcome.later}). Due again at {@code nextCheckAt}; the last error stays as it was.
     */
    public Uni<Boolean> checkLater(LeasedDelivery delivery, Instant nextCheckAt, Instant now) {
        return CHECK_LATER
                .parameters()
                .set("post_id", delivery.postId())
                .set("account_id", delivery.accountId())
                .set("lease_token", delivery.leaseToken())
                .set("next_check_at", nextCheckAt)
                .set("now", now)
                .execute(pool)
                .map(rows -> rows.rowCount() > 0);
    }

    /** When the post's targets fell due: its scheduled time, else its acceptance (else, for an odd event, now). */
    private static Instant dueAt(Post post, Instant now) {
        if (post.scheduledAt() != null) {
            return post.scheduledAt();
        }
        return post.createdAt() != null ? post.createdAt() : now;
    }

    /** The post's platform_options entry for one platform, or {@code {}}. */
    private ObjectNode optionsFor(ObjectNode platformOptions, Platform platform) {
        JsonNode options = platformOptions == null ? null : platformOptions.get(platform.wireName());
        return options instanceof ObjectNode object ? object : mapper.createObjectNode();
    }

    private String json(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a " + value.getClass().getSimpleName() + " cannot be serialized", e);
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
        ObjectNode platformOptions;
        List<Post.Media> media;
        try {
            platformOptions = (ObjectNode) mapper.readTree(row.getString("platform_options"));
            media = mapper.readValue(row.getString("media"), MEDIA_ITEMS);
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("a stored delivery's platform_options or media are unreadable", e);
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
                row.getString("trace_parent"),
                row.getOffsetDateTime("due_at").toInstant(),
                row.getBoolean("account_held")
                        ? new LeasedDelivery.HeldAccount(row.getString("held_reconnect_url"))
                        : null);
    }

    /**
     * Deletes up to {@code limit} published or failed deliveries that completed before {@code cutoff}, oldest first,
     * and what the sandbox, the live publishers' ledger and YouTube's upload sessions remember of their calls (keyed by
     * {@code PublishRequest.tokenOf}: post id, colon, account id); how many deliveries. Pending, publishing and
     * uncertain rows are never touched, however old. {@code SKIP LOCKED}: replicas purging at once split the work.
     */
    public Uni<Integer> deleteFinalBefore(Instant cutoff, int limit) {
        return DELETE_FINAL_BEFORE
                .parameters()
                .set("cutoff", cutoff)
                .set("limit", limit)
                .execute(pool)
                .map(rows -> rows.iterator().next().getInteger("deleted"));
    }
}
