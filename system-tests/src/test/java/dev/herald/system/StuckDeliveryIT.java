package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.local.LocalSuite;
import dev.herald.local.PostgresServer;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Nothing stays stuck: with delivery blackholed (delivery-worker stopped) posts are accepted and handed over, and their
 * handovers wait in Kafka past the watchdog's due grace ({@link RunningSuite#WATCHDOG_GRACE} in the suite). Once the
 * worker runs again, every one of them is final within the watchdog's bound, failed {@code delivery_timeout}
 * (retryable, its reservation released) rather than published late, and none is published at all; a post accepted after
 * the restart publishes once as usual. Isolated: it stops a component. With the watchdog off
 * ({@code HERALD_DELIVERY_WATCHDOG_ENABLED=false}) the overdue posts are published late and this test fails.
 */
@Isolated
class StuckDeliveryIT {
    private static final int BLACKHOLED = 3;
    /** After the restart: the intake settles a late handover at once; the slack is for a busy machine. */
    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void postsHandedOverWhileDeliveryWasDownEndFailedDeliveryTimeoutWithinTheBoundAndNoneIsPublished()
            throws Exception {
        String key = PostsPipelineIT.testKey("Stuck delivery");
        String account = PostsPipelineIT.account(
                key, "linkedin", "brand_" + UUID.randomUUID().toString().substring(0, 8));
        LocalSuite suite = RunningSuite.get();
        List<String> overdue = new ArrayList<>();
        suite.stop("delivery-worker");
        try {
            for (int i = 0; i < BLACKHOLED; i++) {
                overdue.add(PostsPipelineIT.accepted(key, PostsPipelineIT.linkedIn(account)));
            }
            Thread.sleep(RunningSuite.WATCHDOG_GRACE.plusSeconds(5).toMillis());
            for (String id : overdue) {
                assertThat(PostsPipelineIT.awaitPost(key, id, post -> true, 0).getString("data.status"))
                        .as("post %s while delivery is down", id)
                        .isEqualTo("publishing");
            }
        } finally {
            suite.start("delivery-worker");
        }
        Instant resumed = Instant.now();
        String onTime = PostsPipelineIT.accepted(key, PostsPipelineIT.linkedIn(account));

        for (String id : overdue) {
            JsonPath post = PostsPipelineIT.awaitPost(
                    key, id, found -> PostsPipelineIT.FINAL.contains(found.getString("data.status")), BOUND.toMillis());
            assertThat(post.getString("data.status")).as(post.prettify()).isEqualTo("failed");
            assertThat(post.getString("data.targets[0].error.code")).isEqualTo("delivery_timeout");
            assertThat(post.getBoolean("data.targets[0].error.retryable")).isTrue();
            assertThat(post.getString("data.targets[0].error.category")).isEqualTo("platform");
            assertThat(post.getString("data.targets[0].error.action")).isEqualTo("retry_later");
            assertThat(post.getInt("data.targets[0].attempts")).isZero();
        }
        assertThat(Duration.between(resumed, Instant.now())).isLessThan(BOUND);
        JsonPath published = PostsPipelineIT.awaitFinal(key, onTime);
        assertThat(published.getString("data.status")).as(published.prettify()).isEqualTo("published");
        assertThat(PostsPipelineIT.awaitPublications(key, PostsPipelineIT.meter(1, 0)))
                .as("one publication used, the overdue ones released")
                .containsEntry("used", 1)
                .containsEntry("reserved", 0);
        assertThat(publishCalls(overdue, account))
                .as("publish calls of the overdue targets")
                .isZero();
        assertThat(publishCalls(List.of(onTime), account))
                .as("publish calls of the post accepted after the restart")
                .isEqualTo(1);
    }

    /** The sandbox's publish calls for the posts' targets on {@code account}. */
    private static int publishCalls(List<String> postIds, String account) throws Exception {
        PostgresServer postgres = RunningSuite.get().postgres();
        try (Connection connection = postgres.connect("herald_delivery");
                PreparedStatement statement = connection.prepareStatement(
                        "select coalesce(sum(publish_calls), 0) from sandbox_publications where token = any (?)")) {
            statement.setArray(
                    1,
                    connection.createArrayOf(
                            "text",
                            postIds.stream().map(id -> id + ":" + account).toArray()));
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }
}
