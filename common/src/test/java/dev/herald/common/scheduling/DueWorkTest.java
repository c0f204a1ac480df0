package dev.herald.common.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.common.scheduling.DueWork.Round;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class DueWorkTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final List<String> handled = new ArrayList<>();
    private final Map<String, Throwable> warned = new ConcurrentHashMap<>();

    @Test
    void aFailingItemDoesNotStopTheOthers() {
        DueWork<String> work = DueWork.goingOnAfterFailure(
                item -> {
                    handled.add(item);
                    return "b".equals(item)
                            ? Uni.createFrom().failure(new IllegalStateException("b broke"))
                            : Uni.createFrom().item(true);
                },
                warned::put);

        Round round = work.round(claimed("a", "b", "c")).await().atMost(WAIT);

        assertThat(handled).containsExactly("a", "b", "c");
        assertThat(warned).containsOnlyKeys("b");
        assertThat(warned.get("b")).hasMessage("b broke");
        assertThat(round).isEqualTo(new Round(3, 2, 1));
    }

    @Test
    void aHandlerThatThrowsFailsOnlyItsOwnItem() {
        DueWork<String> work = DueWork.goingOnAfterFailure(
                item -> {
                    if ("a".equals(item)) {
                        throw new IllegalArgumentException("thrown before any Uni");
                    }
                    handled.add(item);
                    return Uni.createFrom().item(true);
                },
                warned::put);

        Round round = work.round(claimed("a", "b")).await().atMost(WAIT);

        assertThat(handled).containsExactly("b");
        assertThat(warned).containsOnlyKeys("a");
        assertThat(round).isEqualTo(new Round(2, 1, 1));
    }

    @Test
    void anItemLeftForLaterIsNeitherHandledNorFailed() {
        DueWork<String> work =
                DueWork.goingOnAfterFailure(item -> Uni.createFrom().item(!"postponed".equals(item)), warned::put);

        Round round = work.round(claimed("read", "postponed")).await().atMost(WAIT);

        assertThat(round).isEqualTo(new Round(2, 1, 0));
        assertThat(warned).isEmpty();
    }

    @Test
    void anEmptyClaimEndsTheRoundWithoutHandlingAnything() {
        DueWork<String> work = DueWork.goingOnAfterFailure(this::record, warned::put);

        Round round = work.round(claimed()).await().atMost(WAIT);

        assertThat(round).isEqualTo(new Round(0, 0, 0));
        assertThat(handled).isEmpty();
    }

    @Test
    void aFailingClaimFailsTheRoundBeforeAnyItem() {
        DueWork<String> work = DueWork.goingOnAfterFailure(this::record, warned::put);

        Uni<Round> round = work.round(Uni.createFrom().failure(new IllegalStateException("database away")));

        // The timer running the job logs this failure and claims again at its next tick (RepeatingTaskTest).
        assertThatThrownBy(() -> round.await().atMost(WAIT)).hasMessage("database away");
        assertThat(handled).isEmpty();
        assertThat(warned).isEmpty();
    }

    @Test
    void aJobWhoseBatchIsOneTransactionEndsTheRoundAtTheFirstFailure() {
        DueWork<String> work = DueWork.endingAtFailure(item -> {
            handled.add(item);
            return "b".equals(item)
                    ? Uni.createFrom().failure(new IllegalStateException("rolled back"))
                    : Uni.createFrom().item(true);
        });

        Uni<Round> round = work.round(claimed("a", "b", "c"));

        assertThatThrownBy(() -> round.await().atMost(WAIT)).hasMessage("rolled back");
        assertThat(handled).as("c keeps its claim until the lease lapses").containsExactly("a", "b");
    }

    @Test
    void theNextItemWaitsUntilTheOneBeforeIsDone() {
        CompletableFuture<Boolean> first = new CompletableFuture<>();
        AtomicBoolean secondStarted = new AtomicBoolean();
        DueWork<String> work = DueWork.goingOnAfterFailure(
                item -> {
                    if ("first".equals(item)) {
                        return Uni.createFrom().completionStage(first);
                    }
                    secondStarted.set(true);
                    return Uni.createFrom().item(true);
                },
                warned::put);

        CompletableFuture<Round> round = work.round(claimed("first", "second")).subscribeAsCompletionStage();

        assertThat(secondStarted).as("not started while the first runs").isFalse();
        first.complete(true);
        assertThat(round.join()).isEqualTo(new Round(2, 2, 0));
        assertThat(secondStarted).isTrue();
    }

    @Test
    void itemsHandedOverWithoutAClaimAreHandledTheSameWay() {
        DueWork<String> work = DueWork.endingAtFailure(this::record);

        assertThat(work.handleAll(List.of("x", "y")).await().atMost(WAIT)).isEqualTo(new Round(2, 2, 0));
        assertThat(handled).containsExactly("x", "y");
    }

    private Uni<Boolean> record(String item) {
        handled.add(item);
        return Uni.createFrom().item(true);
    }

    private static Uni<List<String>> claimed(String... items) {
        return Uni.createFrom().item(List.of(items));
    }
}
