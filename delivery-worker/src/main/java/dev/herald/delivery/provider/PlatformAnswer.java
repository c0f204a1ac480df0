package dev.herald.delivery.provider;

import dev.herald.common.wire.TargetError;

/** What one call to a platform came to, in the terms {@link PublicationLedger} keeps its ledger in. */
public sealed interface PlatformAnswer {

    /** The post exists at the platform. */
    record Published(String providerPostId, String url) implements PlatformAnswer {}

    /** The platform answered and created nothing (a 4xx): the next attempt may call again. */
    record Refused(TargetError error) implements PlatformAnswer {}

    /** The call may have created the post (a 5xx, a gateway timeout): the next attempt looks for it first. */
    record Unknown(TargetError error) implements PlatformAnswer {}

    /** The platform refused the access token; nothing was created. */
    record TokenRefused(TargetError error) implements PlatformAnswer {}

    /**
     * The platform took the media and is still processing it (an Instagram Reels container, a TikTok publish id):
     * nothing is final yet. {@code ref} is what the platform handed back to ask about it, kept in the ledger for the
     * next attempt's {@link PlatformCalls#check}.
     */
    record Processing(String ref) implements PlatformAnswer {}

    /** A look for the post of an earlier call found none. */
    record NotFound() implements PlatformAnswer {}
}
