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
 * Runs a reactive task every {@code interval}, never two runs at once, and at once when {@link #nudge()}d
 * (work was just committed and should not wait for the next tick). Quarkus's scheduler cannot tick faster
 * than once a second, too slow for hand-offs that must take well under a second. Each run gets its own
 * safe Vert.x sub-context, as Hibernate Reactive sessions require. A failing run is logged; the next tick
 * runs again.
 */
public final class RepeatingTask {
    private static final Logger LOG = Logger.getLogger(RepeatingTask.class);

    private final Vertx vertx;
    private final String name;
    private final Duration interval;
    private final Supplier<Uni<?>> task;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private volatile long timerId = -1;

    public RepeatingTask(Vertx vertx, String name, Duration interval, Supplier<Uni<?>> task) {
        this.vertx = vertx;
        this.name = name;
        this.interval = interval;
        this.task = task;
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

    /** Runs now, or right after the run in progress. */
    public void nudge() {
        if (timerId != -1) {
            run();
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
