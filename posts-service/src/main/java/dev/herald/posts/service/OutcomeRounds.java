package dev.herald.posts.service;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A poll's outcomes split into rounds that hold at most one outcome per post: round {@code k} holds the {@code k}-th
 * outcome of each post, in the poll's order. Applying the rounds one after another applies each post's outcomes in
 * their order, while one read and one statement serve every post of a round (a fan-out post's outcomes often arrive
 * together, and two of one post cannot be judged against the same read).
 */
final class OutcomeRounds {
    private OutcomeRounds() {}

    static <T> List<List<T>> of(List<T> outcomes, Function<T, String> postOf) {
        List<List<T>> rounds = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (T outcome : outcomes) {
            int round = seen.merge(postOf.apply(outcome), 1, Integer::sum) - 1;
            if (round == rounds.size()) {
                rounds.add(new ArrayList<>());
            }
            rounds.get(round).add(outcome);
        }
        return rounds;
    }
}
