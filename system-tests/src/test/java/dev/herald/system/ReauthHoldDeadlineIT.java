package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A target held for an account that needs re-authorization and is never reconnected fails at the hold deadline
 * (ConnectionHealthIT.HOLD in the suite) with {@code account_reauth_required}, its reservation released. Apart from
 * ConnectionHealthIT, whose reconnection flow it does not need, so the two minutes of waiting overlap.
 */
class ReauthHoldDeadlineIT {

    @Test
    void aScheduledPostToAnAccountThatBrokeWaitsThenFailsAtTheHoldDeadlineAndChargesNothing() throws Exception {
        String key = PostsPipelineIT.testKey("Reauth deadline");
        String accountId = PostsPipelineIT.account(
                key, "linkedin", "reauth_" + UUID.randomUUID().toString().substring(0, 8));
        Instant dueAt = Instant.now().plus(30, ChronoUnit.SECONDS).truncatedTo(ChronoUnit.SECONDS);
        String postId =
                PostsPipelineIT.accepted(key, ConnectionHealthIT.scheduledPost(accountId, "Never reconnected", dueAt));
        ConnectionHealthIT.awaitAccount(
                key, accountId, ConnectionHealthIT.health("reauth_required"), Duration.ofSeconds(60));

        ConnectionHealthIT.sleepUntil(dueAt);
        ConnectionHealthIT.awaitHeldTarget(key, postId);

        JsonPath failed = PostsPipelineIT.awaitPost(
                key,
                postId,
                post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                ConnectionHealthIT.HOLD.plusSeconds(60).toMillis());
        Instant finishedAt = Instant.now();
        assertThat(failed.getString("data.status")).as(failed.prettify()).isEqualTo("failed");
        assertThat(failed.getString("data.targets[0].error.code")).isEqualTo("account_reauth_required");
        assertThat(failed.getString("data.targets[0].error.details.account_id")).isEqualTo(accountId);
        assertThat(finishedAt).as("not before the deadline").isAfter(dueAt.plus(ConnectionHealthIT.HOLD));
        assertThat(PostsPipelineIT.awaitPublications(key, PostsPipelineIT.meter(0, 0)))
                .as("the reservation is released")
                .containsEntry("used", 0)
                .containsEntry("reserved", 0);
    }
}
