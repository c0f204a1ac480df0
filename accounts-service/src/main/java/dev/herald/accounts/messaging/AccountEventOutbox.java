package dev.herald.accounts.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.AccountEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Account;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;

/** Records an account event in the outbox, inside the transaction that made the change. */
@ApplicationScoped
public class AccountEventOutbox {
    private final OutboxWriter writer;
    private final Clock clock;

    public AccountEventOutbox(ObjectMapper mapper, Clock clock) {
        this.writer = new OutboxWriter(mapper);
        this.clock = clock;
    }

    public Uni<Void> record(String type, String workspaceId, Mode mode, Account account, String previousProfileId) {
        return record(type, workspaceId, mode, account, previousProfileId, null);
    }

    /** An event that carries the account's reconnect link ({@code account.reauth_required}, {@code .disconnected}). */
    public Uni<Void> record(
            String type,
            String workspaceId,
            Mode mode,
            Account account,
            String previousProfileId,
            String reconnectUrl) {
        String eventId = ResourceIds.newId(IdPrefix.EVENT);
        AccountEvent event = new AccountEvent(
                eventId, type, Timestamps.now(clock), workspaceId, mode, account, previousProfileId, reconnectUrl);
        return Panache.getSession()
                .flatMap(session -> writer.append(session, eventId, Topics.ACCOUNT_EVENTS, account.id(), event));
    }
}
