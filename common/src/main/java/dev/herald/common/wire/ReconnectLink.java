package dev.herald.common.wire;

import java.time.Instant;

/**
 * {@code POST /accounts/{id}/reconnect-link}: a hosted link that reconnects exactly this account (the same id), valid
 * until {@code expiresAt} (7 days), the same kind of link {@code account.reauth_required} and {@code
 * account.disconnected} carry as {@code reconnect_url}. Signed, not stored: each call makes a new one, and every one
 * works until it expires.
 */
public record ReconnectLink(String accountId, String url, Instant expiresAt) {}
