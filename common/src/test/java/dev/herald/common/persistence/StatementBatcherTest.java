package dev.herald.common.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class StatementBatcherTest {
    /** A statement the test answers by hand: each batch it was given, and the answer it is waiting for. */
    private final List<List<Integer>> batches = new ArrayList<>();

    private final List<CompletableFuture<List<String>>> pending = new ArrayList<>();

    private Uni<List<String>> statement(List<Integer> calls) {
        batches.add(List.copyOf(calls));
        CompletableFuture<List<String>> answer = new CompletableFuture<>();
        pending.add(answer);
        return Uni.createFrom().completionStage(answer);
    }

    /** Answers batch {@code n}: "answer-" and the call, for each call. */
    private void answer(int n) {
        pending.get(n)
                .complete(batches.get(n).stream().map(call -> "answer-" + call).toList());
    }

    private static UniAssertSubscriber<String> subscribe(Uni<String> answer) {
        return answer.subscribe().withSubscriber(UniAssertSubscriber.create());
    }

    @Test
    void aCallWhileNothingIsInFlightGoesAtOnceAndCallsMeanwhileGoTogetherInTheNextStatement() {
        StatementBatcher<Integer, String> batcher = StatementBatcher.of(10, this::statement);

        UniAssertSubscriber<String> first = subscribe(batcher.submit(1));
        assertThat(batches).containsExactly(List.of(1));
        List<UniAssertSubscriber<String>> waiting = new ArrayList<>();
        for (int call = 2; call <= 4; call++) {
            waiting.add(subscribe(batcher.submit(call)));
        }
        assertThat(batches).hasSize(1);

        answer(0);
        first.assertItem("answer-1");
        assertThat(batches).containsExactly(List.of(1), List.of(2, 3, 4));
        answer(1);
        for (int i = 0; i < waiting.size(); i++) {
            waiting.get(i).assertItem("answer-" + (i + 2));
        }
    }

    @Test
    void aBatchHoldsAtMostItsMaximumAndTheRestKeepTheirOrder() {
        StatementBatcher<Integer, String> batcher = StatementBatcher.of(2, this::statement);
        List<UniAssertSubscriber<String>> calls = new ArrayList<>();
        for (int call = 1; call <= 6; call++) {
            calls.add(subscribe(batcher.submit(call)));
        }

        answer(0);
        answer(1);
        answer(2);
        answer(3);

        assertThat(batches).containsExactly(List.of(1), List.of(2, 3), List.of(4, 5), List.of(6));
        for (int i = 0; i < calls.size(); i++) {
            calls.get(i).assertItem("answer-" + (i + 1));
        }
    }

    @Test
    void aCallTheBatchRefusesWaitsForTheNextOne() {
        // Like the gateway's counters: one call per parity in a batch.
        StatementBatcher<Integer, String> batcher = StatementBatcher.of(10, this::statement, () -> {
            Set<Integer> parities = new HashSet<>();
            Predicate<Integer> joins = call -> parities.add(call % 2);
            return joins;
        });
        List<UniAssertSubscriber<String>> calls = new ArrayList<>();
        for (int call = 1; call <= 5; call++) {
            calls.add(subscribe(batcher.submit(call)));
        }

        answer(0);
        answer(1);
        answer(2);

        assertThat(batches).containsExactly(List.of(1), List.of(2, 3), List.of(4, 5));
        calls.get(4).assertItem("answer-5");
    }

    @Test
    void aFailedStatementFailsEveryCallOfItsBatchAndTheNextBatchStillGoes() {
        StatementBatcher<Integer, String> batcher = StatementBatcher.of(10, this::statement);
        UniAssertSubscriber<String> first = subscribe(batcher.submit(1));
        UniAssertSubscriber<String> second = subscribe(batcher.submit(2));
        UniAssertSubscriber<String> third = subscribe(batcher.submit(3));

        answer(0);
        UniAssertSubscriber<String> fourth = subscribe(batcher.submit(4));
        pending.get(1).completeExceptionally(new IllegalStateException("the database went away"));

        first.assertItem("answer-1");
        second.assertFailedWith(IllegalStateException.class, "the database went away");
        third.assertFailedWith(IllegalStateException.class, "the database went away");
        assertThat(batches).containsExactly(List.of(1), List.of(2, 3), List.of(4));
        answer(2);
        fourth.assertItem("answer-4");
    }
}
