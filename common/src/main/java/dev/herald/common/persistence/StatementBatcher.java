package dev.herald.common.persistence;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Runs concurrent calls of one statement together, the way a database groups commits: a call arriving while no
 * statement is in flight is sent at once (no added latency when the service is quiet); calls arriving while one is in
 * flight wait and go together in the next one. Under load one round trip and one commit then serve many calls.
 *
 * <p>One statement is in flight at a time: while it runs, the next batch fills. More in flight would make batches
 * smaller (more statements, more database work per call) without answering any sooner. Each call is answered on the
 * Vert.x context it was made on, as it would be after its own query.
 *
 * @param <I> what one call asks
 * @param <O> its answer; the statement answers a batch with one per call, in the batch's order
 */
public final class StatementBatcher<I, O> {
    private final int maxBatch;
    private final Function<List<I>, Uni<List<O>>> statement;
    private final Supplier<Predicate<I>> joins;
    private final ArrayDeque<Waiting<I, O>> waiting = new ArrayDeque<>();
    private boolean inFlight;

    private StatementBatcher(int maxBatch, Function<List<I>, Uni<List<O>>> statement, Supplier<Predicate<I>> joins) {
        this.maxBatch = maxBatch;
        this.statement = statement;
        this.joins = joins;
    }

    /** Batches of up to {@code maxBatch} calls, in arrival order, for {@code statement}. */
    public static <I, O> StatementBatcher<I, O> of(int maxBatch, Function<List<I>, Uni<List<O>>> statement) {
        return new StatementBatcher<>(maxBatch, statement, () -> call -> true);
    }

    /**
     * The same for a statement that cannot take every mix of calls: {@code joins} gives, for each batch being made, a
     * test that each waiting call is put to in arrival order; a call it refuses waits for a later batch.
     */
    public static <I, O> StatementBatcher<I, O> of(
            int maxBatch, Function<List<I>, Uni<List<O>>> statement, Supplier<Predicate<I>> joins) {
        return new StatementBatcher<>(maxBatch, statement, joins);
    }

    /** The call's answer, from the statement of the batch it goes in; its failure fails every call of that batch. */
    public Uni<O> submit(I call) {
        return Uni.createFrom().emitter(emitter -> {
            synchronized (this) {
                waiting.add(new Waiting<>(call, emitter, Vertx.currentContext()));
            }
            sendNextBatch();
        });
    }

    private void sendNextBatch() {
        List<Waiting<I, O>> batch;
        synchronized (this) {
            if (inFlight || waiting.isEmpty()) {
                return;
            }
            inFlight = true;
            batch = takeBatch();
        }
        List<I> calls = new ArrayList<>(batch.size());
        for (Waiting<I, O> entry : batch) {
            calls.add(entry.call());
        }
        Uni.createFrom()
                .deferred(() -> statement.apply(calls))
                .subscribe()
                .with(
                        answers -> {
                            finished();
                            for (int i = 0; i < batch.size(); i++) {
                                batch.get(i).complete(answers.get(i));
                            }
                        },
                        failure -> {
                            finished();
                            batch.forEach(entry -> entry.fail(failure));
                        });
    }

    /** Up to {@link #maxBatch} waiting calls that join the batch, in arrival order; the others keep their place. */
    private List<Waiting<I, O>> takeBatch() {
        List<Waiting<I, O>> batch = new ArrayList<>(Math.min(waiting.size(), maxBatch));
        Predicate<I> joinsThisBatch = joins.get();
        for (Iterator<Waiting<I, O>> it = waiting.iterator(); it.hasNext() && batch.size() < maxBatch; ) {
            Waiting<I, O> next = it.next();
            if (joinsThisBatch.test(next.call())) {
                batch.add(next);
                it.remove();
            }
        }
        return batch;
    }

    private void finished() {
        synchronized (this) {
            inFlight = false;
        }
        sendNextBatch();
    }

    private record Waiting<I, O>(I call, UniEmitter<? super O> emitter, Context context) {
        void complete(O answer) {
            onOwnContext(() -> emitter.complete(answer));
        }

        void fail(Throwable failure) {
            onOwnContext(() -> emitter.fail(failure));
        }

        private void onOwnContext(Runnable action) {
            if (context == null || context == Vertx.currentContext()) {
                action.run();
            } else {
                context.runOnContext(ignored -> action.run());
            }
        }
    }
}
