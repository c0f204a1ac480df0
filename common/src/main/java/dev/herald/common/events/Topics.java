package dev.herald.common.events;

/** Kafka topic names. Keys are the aggregate id, so events of one aggregate stay in order. */
public final class Topics {
    public static final String PROFILE_EVENTS = "profile.events";
    public static final String ACCOUNT_EVENTS = "account.events";
    public static final String POST_ACCEPTED = "post.accepted";
    public static final String POST_FINALIZED = "post.finalized";
    public static final String TARGET_COMPLETED = "target.completed";
    public static final String USAGE_RESERVED = "usage.reserved";

    private Topics() {}
}
