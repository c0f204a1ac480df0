package dev.herald.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.system.SandboxPublishCalls.Call;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fault tests' "published twice" check, on records with a duplicate planted on purpose. */
class SandboxPublishCallsTest {
    private static final Map<String, String> TARGETS = Map.of("pst_1:acc_1", "sbx_1", "pst_2:acc_2", "sbx_2");

    @Test
    void oneCallAnsweredWithItsPostPerTargetPassesAndIsCounted() {
        SandboxPublishCalls record = new SandboxPublishCalls(
                List.of(new Call("pst_1:acc_1", 1, "sbx_1"), new Call("pst_2:acc_2", 2, "sbx_2")));

        assertThat(record.assertPublishedOnceEach(TARGETS)).isEqualTo(new SandboxPublishCalls.Count(2, 0, 0));
    }

    @Test
    void aTargetPublishedTwiceFailsTheCheckThoughItsPostIsTheSame() {
        // The planted duplicate: a second delivery of the target (its attempts count from 1 again), answered with the
        // same post as the sandbox answers every repeat of a token.
        SandboxPublishCalls record = new SandboxPublishCalls(List.of(
                new Call("pst_1:acc_1", 1, "sbx_1"),
                new Call("pst_1:acc_1", 1, "sbx_1"),
                new Call("pst_2:acc_2", 1, "sbx_2")));

        assertThatThrownBy(() -> record.assertPublishedOnceEach(TARGETS))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("found 3")
                .hasMessageContaining("pst_1:acc_1=2 publish calls answered with a post in attempt 1");
    }

    @Test
    void aLaterAttemptLearningWhatACutOffCallDidIsAReplayNotAPublication() {
        // The lease lapsed after the sandbox answered attempt 1; attempt 2 repeats the call with the same token.
        SandboxPublishCalls record = new SandboxPublishCalls(List.of(
                new Call("pst_1:acc_1", 1, "sbx_1"),
                new Call("pst_1:acc_1", 2, "sbx_1"),
                new Call("pst_2:acc_2", 1, "sbx_2")));

        assertThat(record.assertPublishedOnceEach(TARGETS)).isEqualTo(new SandboxPublishCalls.Count(2, 1, 0));
    }

    @Test
    void aTargetNeverPublishedFailsTheCheck() {
        SandboxPublishCalls record =
                new SandboxPublishCalls(List.of(new Call("pst_1:acc_1", 1, "sbx_1"), new Call("pst_2:acc_2", 1, null)));

        assertThatThrownBy(() -> record.assertPublishedOnceEach(TARGETS))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("pst_2:acc_2=0 publish calls answered with a post");
    }

    @Test
    void aPublicationOtherThanThePostShownFailsTheCheck() {
        SandboxPublishCalls record = new SandboxPublishCalls(
                List.of(new Call("pst_1:acc_1", 1, "sbx_1"), new Call("pst_2:acc_2", 1, "sbx_9")));

        assertThatThrownBy(() -> record.assertPublishedOnceEach(TARGETS))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("published as sbx_9, the post shows sbx_2");
    }

    @Test
    void failedCallsBeforeThePublicationAreCountedApart() {
        SandboxPublishCalls record = new SandboxPublishCalls(List.of(
                new Call("pst_1:acc_1", 1, null),
                new Call("pst_1:acc_1", 2, "sbx_1"),
                new Call("pst_2:acc_2", 1, "sbx_2")));

        assertThat(record.assertPublishedOnceEach(TARGETS)).isEqualTo(new SandboxPublishCalls.Count(2, 0, 1));
    }
}
