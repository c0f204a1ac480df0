package dev.herald.delivery.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.messaging.ProcessedEvents;
import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * The {@code held_accounts} projection of {@code account.events}: which accounts need re-authorization, so their
 * deliveries wait instead of failing. Each event is applied in one statement together with its processed-events
 * record (a redelivered event changes nothing). Ending a hold also makes the account's held deliveries due at once:
 * that write touches only pending rows' due time, never a lease, so it may live here rather than in
 * {@link DeliveryStatements}; a delivery leased at that moment is held again and looked at after
 * {@code herald.delivery.reauth-recheck}.
 */
@ApplicationScoped
public class HeldAccountStatements {
    private static final String FIRST_TIME =
            "with first_time as (" + ProcessedEvents.recordNew("values (:event_id::text)") + ")";

    // The oldest "since" stays (the account has needed re-authorization since then), and a known link unless a new one.
    private static final NamedStatement HOLD = NamedStatement.of(FIRST_TIME + """

            insert into held_accounts (account_id, workspace_id, mode, reconnect_url, since)
            select :account_id::text, :workspace_id::text, :mode::text, :reconnect_url::text, :since::timestamptz
            from first_time
            on conflict (account_id) do update
                set reconnect_url = coalesce(excluded.reconnect_url, held_accounts.reconnect_url)""");

    private static final NamedStatement RELEASE = NamedStatement.of(FIRST_TIME + """
            ,
            released as (
                delete from held_accounts where account_id = :account_id and exists (select 1 from first_time)),
            due as (
                update deliveries set next_attempt_at = :now, updated_at = :now
                where account_id = :account_id and status = 'pending' and held_since is not null
                    and exists (select 1 from first_time)
                returning 1)
            select count(*)::integer as due from due""");

    private final Pool pool;

    public HeldAccountStatements(Pool pool) {
        this.pool = pool;
    }

    /** Holds the account's deliveries from now on ({@code account.reauth_required}). */
    public Uni<Void> hold(
            String eventId, String accountId, String workspaceId, Mode mode, String reconnectUrl, Instant since) {
        return HOLD.parameters()
                .set("event_id", eventId)
                .set("account_id", accountId)
                .set("workspace_id", workspaceId)
                .set("mode", mode.wireName())
                .set("reconnect_url", reconnectUrl)
                .set("since", since)
                .execute(pool)
                .replaceWithVoid();
    }

    /**
     * Ends the account's hold (reconnected, connected, or disconnected: a disconnected account's deliveries fail
     * through the reservation check) and makes its held deliveries due at {@code now}; how many.
     */
    public Uni<Integer> release(String eventId, String accountId, Instant now) {
        return RELEASE.parameters()
                .set("event_id", eventId)
                .set("account_id", accountId)
                .set("now", now)
                .execute(pool)
                .map(rows -> rows.iterator().next().getInteger("due"));
    }
}
