package dev.herald.common.scheduling;

import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Runs a reactive task every {@code interval}, never two runs at once, and soon when {@link #nudge()}d (work was
 * just committed and should not wait for the next tick): {@value #NUDGE_LINGER_MILLIS} ms later, so the nudges of
 * that moment share one run (an outbox relay sends their events as one batch, with one claim and one update,
 * instead of a run per committing transaction). Quarkus's scheduler cannot tick faster than once a second, too
 * slow for hand-offs that must take well under a second. Each run gets its own safe Vert.x sub-context, as
 * Hibernate Reactive sessions require. A failing run is logged; the next tick runs again.
 */
public final class RepeatingTask {
    private static final Logger LOG = Logger.getLogger(RepeatingTask.class);
    static final long NUDGE_LINGER_MILLIS = 5;

    private final Vertx vertx;
    private final String name;
    private final Duration interval;
    private final Supplier<Uni<?>> task;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private final AtomicBoolean lingering = new AtomicBoolean();
    private final long lingerMillis;
    private volatile long timerId = -1;

    public RepeatingTask(Vertx vertx, String name, Duration interval, Supplier<Uni<?>> task) {
        this(vertx, name, interval, task, Duration.ofMillis(NUDGE_LINGER_MILLIS));
    }

    RepeatingTask(Vertx vertx, String name, Duration interval, Supplier<Uni<?>> task, Duration linger) {
        this.vertx = vertx;
        this.name = name;
        this.interval = interval;
        this.task = task;
        this.lingerMillis = Math.max(1, linger.toMillis()); // Vert.x timers take at least 1 ms
    }

    public synchronized void start() {
        if (timerId == -1) {
            timerId = vertx.setPeriodic(interval.toMillis(), id -> run());
        }
    }

    public synchronized void stop() {
        if (timerId != -1) {
            vertx.cancelTimer(timerId);
            timerId = -1;
        }
    }

    /** Runs in {@value #NUDGE_LINGER_MILLIS} ms, or right after the run in progress then. */
    public void nudge() {
        if (timerId != -1 && lingering.compareAndSet(false, true)) {
            vertx.setTimer(lingerMillis, id -> {
                lingering.set(false);
                run();
            });
        }
    }

    private void run() {
        if (!running.compareAndSet(false, true)) {
            again.set(true);
            return;
        }
        again.set(false);
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(context, true);
        context.runOnContext(ignored -> {
            Uni<?> run;
            try {
                run = task.get();
            } catch (RuntimeException e) {
                run = Uni.createFrom().failure(e);
            }
            run.subscribe().with(done -> finished(), failure -> {
                LOG.warnf("%s: %s (will run again)", name, failure.toString());
                finished();
            });
        });
    }

    private void finished() {
        running.set(false);
        if (again.getAndSet(false)) {
            run();
        }
    }
}
