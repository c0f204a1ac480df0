package dev.herald.posts.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OutcomeRoundsTest {
    /** An outcome named "post/n": the n-th of its post in the poll. */
    private static List<List<String>> rounds(String... outcomes) {
        return OutcomeRounds.of(List.of(outcomes), outcome -> outcome.substring(0, outcome.indexOf('/')));
    }

    @Test
    void outcomesOfDistinctPostsShareOneRoundInThePollsOrder() {
        assertThat(rounds("a/1", "c/1", "b/1")).containsExactly(List.of("a/1", "c/1", "b/1"));
    }

    @Test
    void eachRoundHoldsAtMostOneOutcomePerPostAndAPostsOutcomesKeepTheirOrder() {
        assertThat(rounds("a/1", "b/1", "a/2", "a/3", "c/1", "b/2"))
                .containsExactly(List.of("a/1", "b/1", "c/1"), List.of("a/2", "b/2"), List.of("a/3"));
    }

    @Test
    void anEmptyPollHasNoRounds() {
        assertThat(rounds()).isEmpty();
    }
}
