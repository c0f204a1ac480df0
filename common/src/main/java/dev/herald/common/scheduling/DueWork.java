package dev.herald.common.scheduling;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One round of a job that works through what is due: the rows a claim took ({@code FOR UPDATE SKIP LOCKED} or a lease,
 * so replicas share the work) are handled one after another, each only once the one before is done (a platform or
 * service is never sent a burst, and nothing waits on a thread: every step is a {@link Uni}); the {@link Round} says
 * how many. What a failing item does is the job's choice, named where the job builds its {@code DueWork}:
 *
 * <ul>
 *   <li>{@link #goingOnAfterFailure}: the failure is handed to the job's warning and the round goes on with the next
 *       item; the failed one keeps its claim until the lease lapses, then falls due again;
 *   <li>{@link #endingAtFailure}: the round fails (the rest keep their claims until their lease lapses), as a batch
 *       handled in one transaction must, since the failure rolled it back.
 * </ul>
 *
 * A failing claim fails the round before anything is handled; the timer that runs the job ({@link RepeatingTask} or
 * Quarkus's scheduler) logs it and the next tick claims again. An empty claim ends the round at once.
 *
 * @param <T> what a claim returns, one per due row
 */
public final class DueWork<T> {
    private final Function<? super T, Uni<Boolean>> handle;
    private final BiConsumer<? super T, Throwable> warning;

    private DueWork(Function<? super T, Uni<Boolean>> handle, BiConsumer<? super T, Throwable> warning) {
        this.handle = handle;
        this.warning = warning;
    }

    /**
     * One item's trouble never ends the round: its failure goes to {@code warning} (which logs it, in the job's words)
     * and counts as {@link Round#failed}.
     *
     * @param handle handles one claimed item; its {@code true} counts as {@link Round#handled}, {@code false} as
     *     looked at but left (not read, postponed, held by another replica)
     */
    public static <T> DueWork<T> goingOnAfterFailure(
            Function<? super T, Uni<Boolean>> handle, BiConsumer<? super T, Throwable> warning) {
        return new DueWork<>(handle, warning);
    }

    /**
     * One item's failure fails the whole round.
     *
     * @param handle handles one claimed item; its {@code true} counts as {@link Round#handled}
     */
    public static <T> DueWork<T> endingAtFailure(Function<? super T, Uni<Boolean>> handle) {
        return new DueWork<>(handle, null);
    }

    /** Claims (when {@code claim} is subscribed) and handles what was claimed. */
    public Uni<Round> round(Uni<? extends List<T>> claim) {
        return claim.flatMap(this::handleAll);
    }

    /** Handles items already claimed (by {@link #round}, or handed over by another path), one after another. */
    public Uni<Round> handleAll(List<T> claimed) {
        return Multi.createFrom()
                .iterable(claimed)
                .onItem()
                .transformToUniAndConcatenate(this::handleOne)
                .collect()
                .asList()
                .map(outcomes ->
                        new Round(claimed.size(), count(outcomes, Outcome.HANDLED), count(outcomes, Outcome.FAILED)));
    }

    private Uni<Outcome> handleOne(T item) {
        // Deferred: a handler that throws before returning its Uni fails like one whose Uni fails.
        Uni<Outcome> outcome = Uni.createFrom()
                .deferred(() -> handle.apply(item))
                .map(done -> Boolean.TRUE.equals(done) ? Outcome.HANDLED : Outcome.LEFT);
        if (warning == null) {
            return outcome;
        }
        return outcome.onFailure().recoverWithItem(failure -> {
            warning.accept(item, failure);
            return Outcome.FAILED;
        });
    }

    private static int count(List<Outcome> outcomes, Outcome wanted) {
        return (int) outcomes.stream().filter(wanted::equals).count();
    }

    private enum Outcome {
        HANDLED,
        LEFT,
        FAILED
    }

    /**
     * What one round did.
     *
     * @param claimed how many items the claim returned
     * @param handled how many of them their handler counted as done
     * @param failed how many failed (always 0 when a failure ends the round)
     */
    public record Round(int claimed, int handled, int failed) {}
}
