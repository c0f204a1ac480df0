package dev.herald.system;

import dev.herald.local.PostgresServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the sandbox provider recorded of the publish calls it received (delivery-worker's
 * {@code sandbox_publish_calls}, one row per call), and the check the fault tests make of it: exactly one call
 * answered with a post per published target, the post the target shows, and no more such calls than targets.
 * {@code sandbox_publications} (one row per token) could not show a second publication: the sandbox answers a
 * repeated call with the token's post, as an idempotency key makes a provider do; a platform without one would post
 * twice, so this record counts that call as a second publication.
 *
 * @param calls every call recorded for the targets asked about, in no particular order
 */
record SandboxPublishCalls(List<Call> calls) {

    /**
     * One publish call.
     *
     * @param token the target's idempotency token, {@code <post id>:<account id>}
     * @param attempt which attempt of the target made it, from 1
     * @param providerPostId the post the call was answered with; null when the call failed
     */
    record Call(String token, int attempt, String providerPostId) {
        boolean published() {
            return providerPostId != null;
        }
    }

    /** What the record showed: calls answered with a post (one per target when the check passes) and failed ones. */
    record Count(int publications, int failedCalls) {}

    /** The calls delivery-worker's sandbox recorded for these tokens. */
    static SandboxPublishCalls read(PostgresServer postgres, Iterable<String> tokens) throws Exception {
        List<String> asked = new ArrayList<>();
        tokens.forEach(asked::add);
        List<Call> calls = new ArrayList<>();
        try (Connection connection = postgres.connect("herald_delivery");
                PreparedStatement statement = connection.prepareStatement(
                        "select token, attempt, provider_post_id from sandbox_publish_calls where token = any (?)")) {
            statement.setArray(1, connection.createArrayOf("text", asked.toArray()));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    calls.add(new Call(
                            rows.getString("token"), rows.getInt("attempt"), rows.getString("provider_post_id")));
                }
            }
        }
        return new SandboxPublishCalls(calls);
    }

    /**
     * Checks that each target ({@code providerPostIds}: token to the provider post id its post shows) was published by
     * exactly one call, answered with that post, and that the calls answered with a post number the targets exactly.
     * Fails naming every target published more than once, or not at all.
     */
    Count assertPublishedOnceEach(Map<String, String> providerPostIds) {
        Map<String, List<Call>> publishedBy = new HashMap<>();
        int failed = 0;
        for (Call call : calls) {
            if (call.published()) {
                publishedBy
                        .computeIfAbsent(call.token(), token -> new ArrayList<>())
                        .add(call);
            } else {
                failed++;
            }
        }
        Map<String, String> wrong = new TreeMap<>();
        for (Map.Entry<String, String> target : providerPostIds.entrySet()) {
            List<Call> publications = publishedBy.getOrDefault(target.getKey(), List.of());
            if (publications.size() != 1) {
                wrong.put(
                        target.getKey(), publications.size() + " publish calls answered with a post: " + publications);
            } else if (!publications.get(0).providerPostId().equals(target.getValue())) {
                wrong.put(
                        target.getKey(),
                        "published as " + publications.get(0).providerPostId() + ", the post shows "
                                + target.getValue());
            }
        }
        publishedBy.keySet().stream()
                .filter(token -> !providerPostIds.containsKey(token))
                .forEach(token -> wrong.put(token, "published, but no post shows it: " + publishedBy.get(token)));
        int publications = publishedBy.values().stream().mapToInt(List::size).sum();
        if (!wrong.isEmpty() || publications != providerPostIds.size()) {
            throw new AssertionError("expected exactly one sandbox publication per published target ("
                    + providerPostIds.size() + " targets), found " + publications + "; wrong targets: " + wrong);
        }
        return new Count(publications, failed);
    }
}
