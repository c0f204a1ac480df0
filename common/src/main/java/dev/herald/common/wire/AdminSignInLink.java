package dev.herald.common.wire;

import java.time.Instant;

/** A one-time dashboard sign-in link for a member, shown only in the answer that made it. */
public record AdminSignInLink(String memberId, String url, Instant expiresAt) {}
