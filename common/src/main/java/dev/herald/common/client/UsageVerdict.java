package dev.herald.common.client;

import dev.herald.common.wire.TargetError;

/**
 * usage-service's answer to "may this reservation be consumed now?": yes ({@code refusal} null), or a refusal
 * that fails the target ({@code usage_limit_exceeded}, {@code account_capacity_exceeded}, with their details).
 */
public record UsageVerdict(TargetError refusal) {
    public static final UsageVerdict ALLOWED = new UsageVerdict(null);

    public boolean allowed() {
        return refusal == null;
    }
}
