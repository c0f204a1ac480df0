package dev.herald.common.wire;

/**
 * usage-service's answer when an account takes a connected-account slot: how many accounts the workspace and
 * mode have connected now (this one included) and the plan's limit.
 */
public record AccountSlot(String accountId, long connected, long limit) {}
