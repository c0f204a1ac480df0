package dev.herald.fakes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.herald.fakes.service.SeededComments;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The documented seeds, by hand: SHA-256 of the first id starts c44c8694 (s mod 4 = 0, s mod 6 = 2, s mod 3 = 2), of the
 * second 5f6b0b4e (2, 0, 0).
 */
class SeededCommentsTest {

    @Test
    void anItemHasTwoTopLevelCommentsAndAReplyToTheFirstByThreeOtherPeople() {
        List<SeededComments.Seed> seeds = SeededComments.of("108765432109876_1234567890123456");

        assertThat(seeds)
                .containsExactly(
                        new SeededComments.Seed(0, null, "Saving this for later.", SeededComments.CAST.get(0)),
                        new SeededComments.Seed(
                                1, null, "Love it, congratulations to the team.", SeededComments.CAST.get(1)),
                        new SeededComments.Seed(2, 0, "Following this thread.", SeededComments.CAST.get(2)));
        assertThat(SeededComments.of("dQw4w9WgXcQ"))
                .extracting(SeededComments.Seed::text, seed -> seed.author().name())
                .containsExactly(
                        tuple("This looks great!", "Ada Okafor"),
                        tuple("Where can I find out more about this?", "Jun Park"),
                        tuple("Same question here.", "Mara Quinn"));
    }

    @Test
    void idsDependOnlyOnTheItemAndTheSeed() {
        assertThat(SeededComments.digits("dQw4w9WgXcQ", 0, 16)).isEqualTo("5142733991468867");
        assertThat(SeededComments.digits("dQw4w9WgXcQ", 1, 19))
                .hasSize(19)
                .matches("[1-9][0-9]{18}")
                .isEqualTo(SeededComments.digits("dQw4w9WgXcQ", 1, 19));
        assertThat(SeededComments.letters("dQw4w9WgXcQ", 0, 16))
                .matches("[A-Za-z0-9_-]{16}")
                .isNotEqualTo(SeededComments.letters("dQw4w9WgXcQ", 1, 16));
    }
}
