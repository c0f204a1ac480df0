package dev.herald.posts.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.posts.model.PostTargetEntity;
import java.util.List;
import org.junit.jupiter.api.Test;

class HandoverWatchdogRuleTest {
    @Test
    void onlyTargetsNoOutcomeCameBackForAreHandedOverAgain() {
        List<PostTargetEntity> targets = List.of(
                target("acc_1", "publishing"),
                target("acc_2", "queued"),
                target("acc_3", "uncertain"),
                target("acc_4", "published"),
                target("acc_5", "failed"),
                target("acc_6", "publishing"));

        assertThat(HandoverWatchdog.unanswered(targets))
                .extracting(target -> target.accountId)
                .containsExactly("acc_1", "acc_6");
    }

    private static PostTargetEntity target(String accountId, String status) {
        PostTargetEntity target = new PostTargetEntity();
        target.accountId = accountId;
        target.status = status;
        return target;
    }
}
