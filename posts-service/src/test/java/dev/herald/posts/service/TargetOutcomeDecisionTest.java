package dev.herald.posts.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.TargetError;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.service.TargetOutcomeDecision.Ignored;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetOutcomeDecisionTest {
    private static final Instant DONE = Instant.parse("2026-03-10T12:00:00Z");
    private static final TargetError REFUSED = new TargetError("provider_error", "No.", false, Map.of());

    private final PostEntity post = post("wsp_1", Mode.TEST);

    private static PostEntity post(String workspace, Mode mode) {
        PostEntity post = new PostEntity();
        post.id = "pst_1";
        post.workspaceId = workspace;
        post.mode = mode.wireName();
        post.status = Post.PUBLISHING;
        return post;
    }

    private static PostTargetEntity target(String account, String status, int attempts) {
        PostTargetEntity target = new PostTargetEntity();
        target.postId = "pst_1";
        target.accountId = account;
        target.status = status;
        target.attempts = attempts;
        return target;
    }

    private static TargetCompletedEvent outcome(String account, String status, int attempts, TargetError error) {
        return new TargetCompletedEvent(
                "evt_1",
                TargetCompletedEvent.TYPE,
                DONE,
                "wsp_1",
                Mode.TEST,
                "pst_1",
                account,
                "rsv_1",
                status,
                attempts,
                PostTarget.PUBLISHED.equals(status) ? "li_1" : null,
                PostTarget.PUBLISHED.equals(status) ? "https://linkedin.example/li_1" : null,
                error,
                DONE);
    }

    /** The decision for {@code account}'s {@code status} among targets {@code acc_1} (publishing) and {@code others}. */
    private TargetOutcomeDecision decide(String status, String... others) {
        List<PostTargetEntity> rows = new ArrayList<>();
        rows.add(target("acc_1", PostTarget.PUBLISHING, 1));
        for (String other : others) {
            rows.add(target("acc_" + (rows.size() + 1), other, 1));
        }
        return TargetOutcomeDecision.of(outcome("acc_1", status, 2, null), post, rows);
    }

    @Test
    void theTargetTakesTheWorkersResultAndItsAttemptsNeverGoDown() {
        List<PostTargetEntity> rows = List.of(target("acc_1", PostTarget.PUBLISHING, 3));
        TargetOutcomeDecision decision =
                TargetOutcomeDecision.of(outcome("acc_1", PostTarget.PUBLISHED, 2, null), post, rows);
        assertThat(decision.applies()).isTrue();
        assertThat(decision.target()).isSameAs(rows.get(0));
        assertThat(decision.result())
                .isEqualTo(new TargetOutcomeDecision.TargetResult(
                        PostTarget.PUBLISHED, 3, "li_1", "https://linkedin.example/li_1", null, DONE));
        assertThat(TargetOutcomeDecision.of(outcome("acc_1", PostTarget.FAILED, 5, REFUSED), post, rows)
                        .result())
                .isEqualTo(new TargetOutcomeDecision.TargetResult(PostTarget.FAILED, 5, null, null, REFUSED, DONE));
        // Deciding changes nothing it was given.
        assertThat(rows.get(0).status).isEqualTo(PostTarget.PUBLISHING);
        assertThat(post.status).isEqualTo(Post.PUBLISHING);
    }

    @Test
    void theLastTargetMakesThePostPublishedPartiallyFailedOrFailed() {
        assertThat(decide(PostTarget.PUBLISHED).finalStatus()).isEqualTo(Post.PUBLISHED);
        assertThat(decide(PostTarget.PUBLISHED, PostTarget.PUBLISHED).finalStatus())
                .isEqualTo(Post.PUBLISHED);
        assertThat(decide(PostTarget.FAILED).finalStatus()).isEqualTo(Post.FAILED);
        assertThat(decide(PostTarget.FAILED, PostTarget.FAILED).finalStatus()).isEqualTo(Post.FAILED);
        assertThat(decide(PostTarget.FAILED, PostTarget.PUBLISHED).finalStatus())
                .isEqualTo(Post.PARTIALLY_FAILED);
        assertThat(decide(PostTarget.PUBLISHED, PostTarget.FAILED).finalStatus())
                .isEqualTo(Post.PARTIALLY_FAILED);
    }

    @Test
    void thePostStaysOpenWhileATargetIsNotPublishedOrFailed() {
        assertThat(decide(PostTarget.PUBLISHED, PostTarget.PUBLISHING).finalStatus())
                .isNull();
        assertThat(decide(PostTarget.PUBLISHED, PostTarget.QUEUED).finalStatus())
                .isNull();
        assertThat(decide(PostTarget.FAILED, PostTarget.UNCERTAIN).finalStatus())
                .isNull();
        // A canceled target never counts towards a delivery's final status: cancellation finalizes posts itself.
        assertThat(decide(PostTarget.PUBLISHED, PostTarget.CANCELED).finalStatus())
                .isNull();
    }

    @Test
    void anUncertainOutcomeKeepsThePostOpenWithoutACompletionTime() {
        TargetOutcomeDecision decision = decide(PostTarget.UNCERTAIN);
        assertThat(decision.applies()).isTrue();
        assertThat(decision.result().status()).isEqualTo(PostTarget.UNCERTAIN);
        assertThat(decision.result().completedAt()).isNull();
        assertThat(decision.finalStatus()).isNull();
        // An uncertain target is not final: its settled outcome applies later.
        List<PostTargetEntity> rows = List.of(target("acc_1", PostTarget.UNCERTAIN, 1));
        assertThat(TargetOutcomeDecision.of(outcome("acc_1", PostTarget.PUBLISHED, 1, null), post, rows)
                        .finalStatus())
                .isEqualTo(Post.PUBLISHED);
    }

    @Test
    void aHeldTargetShowsQueuedWithItsReasonAndThePostStaysOpen() {
        TargetOutcomeDecision decision = decide(PostTarget.QUEUED);
        assertThat(decision.applies()).isTrue();
        assertThat(decision.result().status()).isEqualTo(PostTarget.QUEUED);
        assertThat(decision.result().completedAt()).isNull();
        assertThat(decision.finalStatus()).isNull();
        // Reconnected, the held target's publication applies as any outcome does.
        List<PostTargetEntity> rows = List.of(target("acc_1", PostTarget.QUEUED, 0));
        assertThat(TargetOutcomeDecision.of(outcome("acc_1", PostTarget.PUBLISHED, 1, null), post, rows)
                        .finalStatus())
                .isEqualTo(Post.PUBLISHED);
    }

    @Test
    void aRedeliveredOutcomeFindsItsTargetFinalAndChangesNothing() {
        for (String settled : List.of(PostTarget.PUBLISHED, PostTarget.FAILED, PostTarget.CANCELED)) {
            List<PostTargetEntity> rows = List.of(target("acc_1", settled, 1));
            TargetOutcomeDecision decision =
                    TargetOutcomeDecision.of(outcome("acc_1", PostTarget.PUBLISHED, 1, null), post, rows);
            assertThat(decision.applies()).isFalse();
            assertThat(decision.ignored()).isEqualTo(Ignored.TARGET_ALREADY_FINAL);
            assertThat(decision.target()).isSameAs(rows.get(0));
            assertThat(decision.result()).isNull();
            assertThat(decision.finalStatus()).isNull();
        }
    }

    @Test
    void anOutcomeForAnotherTenantsPostOrNoPostChangesNothing() {
        List<PostTargetEntity> rows = List.of(target("acc_1", PostTarget.PUBLISHING, 0));
        TargetCompletedEvent event = outcome("acc_1", PostTarget.PUBLISHED, 1, null);
        assertThat(TargetOutcomeDecision.of(event, post("wsp_other", Mode.TEST), rows)
                        .ignored())
                .isEqualTo(Ignored.NOT_THE_TENANTS_POST);
        assertThat(TargetOutcomeDecision.of(event, post("wsp_1", Mode.LIVE), rows)
                        .ignored())
                .isEqualTo(Ignored.NOT_THE_TENANTS_POST);
        assertThat(TargetOutcomeDecision.of(event, null, List.of()).ignored()).isEqualTo(Ignored.NOT_THE_TENANTS_POST);
    }

    @Test
    void anOutcomeForAnAccountThatIsNotATargetChangesNothing() {
        List<PostTargetEntity> rows = List.of(target("acc_1", PostTarget.PUBLISHING, 0));
        assertThat(TargetOutcomeDecision.of(outcome("acc_2", PostTarget.PUBLISHED, 1, null), post, rows)
                        .ignored())
                .isEqualTo(Ignored.NOT_A_TARGET);
    }

    @Test
    void aStatusThatIsNoOutcomeChangesNothing() {
        List<PostTargetEntity> rows = List.of(target("acc_1", PostTarget.PUBLISHING, 0));
        for (String status : Arrays.asList(null, PostTarget.CANCELED, PostTarget.PUBLISHING, "done")) {
            assertThat(TargetOutcomeDecision.of(outcome("acc_1", status, 1, null), post, rows)
                            .ignored())
                    .as(status)
                    .isEqualTo(Ignored.NOT_AN_OUTCOME);
        }
    }
}
