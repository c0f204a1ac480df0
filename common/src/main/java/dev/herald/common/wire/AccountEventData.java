package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The {@code data} of the {@code account.reauth_required}, {@code account.disconnected} and {@code account.reconnected}
 * webhook events: the account after the change, and for the first two the hosted {@code reconnectUrl} that
 * reconnects exactly this account (valid 7 days; the customer may forward it to the account's owner as it is).
 */
public record AccountEventData(
        Account account,
        @JsonInclude(JsonInclude.Include.NON_NULL) String reconnectUrl) {}
