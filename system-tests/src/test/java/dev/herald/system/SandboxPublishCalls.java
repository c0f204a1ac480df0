package dev.herald.system;

import dev.herald.local.PostgresServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the sandbox provider recorded of the publish calls it received (delivery-worker's
 * {@code sandbox_publish_calls}, one row per call), and the check the fault tests make of it: exactly one call
 * answered with a post per published target, the post the target shows, and no more such calls than targets.
 * {@code sandbox_publications} (one row per token) could not show a second publication: the sandbox answers a
 * repeated call with the token's post, as an idempotency key makes a provider do. This record shows each call with its
 * attempt. One repeat is by design and is counted apart as a replay: a delivery whose lease lapsed after the sandbox
 * answered calls once more, in a later attempt, with the same token, only to learn what the cut-off call did
 * (DeliveryAttempts.publish). Any other call answered with a post (a second delivery of the target, or two calls in
 * one attempt) is a second publication and fails the check.
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

    /**
     * What the record showed: calls that published (one per target when the check passes), replays of a cut-off call in
     * a later attempt, and failed calls.
     */
    record Count(int publications, int replays, int failedCalls) {}

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
     * exactly one call, answered with that post, and that the calls that published number the targets exactly. A call
     * answered with a post in a later attempt than the target's first such call is a replay, not a publication.
     * Fails naming every target published more than once, or not at all.
     */
    Count assertPublishedOnceEach(Map<String, String> providerPostIds) {
        Map<String, List<Call>> answeredBy = new HashMap<>();
        int failed = 0;
        for (Call call : calls) {
            if (call.published()) {
                answeredBy
                        .computeIfAbsent(call.token(), token -> new ArrayList<>())
                        .add(call);
            } else {
                failed++;
            }
        }
        Map<String, String> wrong = new TreeMap<>();
        int publications = 0;
        int replays = 0;
        for (Map.Entry<String, List<Call>> answered : answeredBy.entrySet()) {
            String token = answered.getKey();
            List<Call> byAttempt = answered.getValue().stream()
                    .sorted(Comparator.comparingInt(Call::attempt))
                    .toList();
            int first = byAttempt.get(0).attempt();
            List<Call> published =
                    byAttempt.stream().filter(call -> call.attempt() == first).toList();
            publications += published.size();
            replays += byAttempt.size() - published.size();
            String shown = providerPostIds.get(token);
            if (shown == null) {
                wrong.put(token, "published, but no post shows it: " + byAttempt);
            } else if (published.size() != 1) {
                wrong.put(
                        token,
                        published.size() + " publish calls answered with a post in attempt " + first + ": "
                                + byAttempt);
            } else {
                byAttempt.stream()
                        .map(Call::providerPostId)
                        .filter(post -> !post.equals(shown))
                        .findFirst()
                        .ifPresent(other -> wrong.put(token, "published as " + other + ", the post shows " + shown));
            }
        }
        providerPostIds.keySet().stream()
                .filter(token -> !answeredBy.containsKey(token))
                .forEach(token -> wrong.put(token, "0 publish calls answered with a post"));
        if (!wrong.isEmpty() || publications != providerPostIds.size()) {
            throw new AssertionError("expected exactly one sandbox publication per published target ("
                    + providerPostIds.size() + " targets), found " + publications + "; wrong targets: " + wrong);
        }
        return new Count(publications, replays, failed);
    }
}
