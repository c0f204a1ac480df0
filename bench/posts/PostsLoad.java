import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** The posts benchmark's load client: the pacer, the closed and open loops, the backlog gate and the connections. */
abstract class PostsLoad extends PostsRunState {
    final BacklogGate gate = new BacklogGate();

    /** Posts-service's counters the backlog gate and the phases read (PostsPipeline). */
    abstract Map<String, long[]> databaseCounters() throws Exception;

    // ---------------------------------------------------------------- load

    /**
     * Hands out request slots: at most {@code rate} per second overall, never catching up after a stall (a slot
     * is never earlier than the previous one plus 1/rate, nor earlier than now), and slot k is workspace k mod W.
     * So each workspace's requests are at least W/rate seconds apart, in every phase and across phases.
     */
    final class Pacer {
        final long intervalNanos;
        long next = System.nanoTime();
        long counter;

        Pacer(double rate) {
            this.intervalNanos = (long) Math.ceil(1e9 / rate);
        }

        /** Waits for the next slot; answers its number. */
        long acquire() {
            long slot;
            long k;
            synchronized (this) {
                long now = System.nanoTime();
                slot = Math.max(next, now);
                next = slot + intervalNanos;
                k = counter++;
            }
            long wait = slot - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            return k;
        }
    }

    /**
     * Closed loop: each connection sends its next post when the previous answer is read, through the pacer. With
     * {@code gated}, no post is sent while the backlog gate is closed (too many posts queued or publishing).
     */
    Phase closedLoop(String name, int connections, int seconds, Pacer pacer, boolean quiet, boolean gated) throws Exception {
        if (!quiet) {
            log(name + ": " + seconds + " s, pacer at most " + fmt0(rate) + " posts/s over " + workspaceCount + " workspaces");
        }
        Phase phase = new Phase(name, connections, false);
        phase.gated = gated;
        long closedBefore = gate.closedNanos();
        Worker[] workers = new Worker[connections];
        for (int i = 0; i < connections; i++) {
            workers[i] = new Worker(this, phase);
            workers[i].connect();
        }
        gate.enabled = gated;
        runWorkers(phase, workers, seconds, w -> {
            while (System.nanoTime() < w.deadline) {
                if (gated && !gate.open) {
                    LockSupport.parkNanos(20_000_000L);
                    continue;
                }
                long k = pacer.acquire();
                if (System.nanoTime() >= w.deadline || !takeFromBudget()) {
                    break;
                }
                long t0 = System.nanoTime();
                w.exchange(k, t0, t0);
            }
        });
        gate.enabled = false;
        phase.gateClosedNanos = gate.closedNanos() - closedBefore;
        return phase;
    }

    /**
     * Closes while more than --backlog posts are queued or publishing (polled every 250 ms from herald_posts), and
     * opens again below half of it: a closed loop that waits on it accepts, over time, as fast as the pipeline
     * publishes.
     */
    final class BacklogGate {
        volatile boolean enabled;
        volatile boolean open = true;
        volatile long pending;
        long closedTotal;
        long closedSince = -1;
        Thread thread;
        volatile boolean running = true;

        void start() {
            thread = new Thread(() -> {
                while (running) {
                    try {
                        if (enabled) {
                            pending = Long.parseLong(postsDb.query("select count(*) from posts where status in ('queued', 'publishing')").get(0)[0]);
                            synchronized (this) {
                                if (open && pending > backlogCap) {
                                    open = false;
                                    closedSince = System.nanoTime();
                                } else if (!open && pending < backlogCap / 2) {
                                    open = true;
                                    closedTotal += System.nanoTime() - closedSince;
                                }
                            }
                        } else if (!open) {
                            synchronized (this) {
                                open = true;
                                closedTotal += System.nanoTime() - closedSince;
                            }
                        }
                        Thread.sleep(250);
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        log("backlog gate: " + e);
                    }
                }
            }, "backlog-gate");
            thread.setDaemon(true);
            thread.start();
        }

        synchronized long closedNanos() {
            return closedTotal + (open ? 0 : System.nanoTime() - closedSince);
        }

        void stop() {
            running = false;
            thread.interrupt();
        }
    }

    /**
     * Open loop: request k is due at start + k / rate whatever the answers do; latency runs from that due time
     * (so a backlog in the client counts, no coordinated omission). A request more than
     * {@link #OPEN_LOOP_MAX_LATE_NANOS} late is dropped and counted, which bounds any workspace's requests in a
     * minute (the schedule gives each at most rate / W per second).
     */
    Phase openLoop(String name, double openRate, int seconds) throws Exception {
        log(name + ": " + seconds + " s, " + openConnections + " connections");
        Phase phase = new Phase(name, openConnections, true);
        phase.offeredRate = openRate;
        Worker[] workers = new Worker[openConnections];
        for (int i = 0; i < openConnections; i++) {
            workers[i] = new Worker(this, phase);
            workers[i].connect();
        }
        AtomicInteger nextSlot = new AtomicInteger();
        double interval = 1e9 / openRate;
        long base = slotBase.get();
        runWorkers(phase, workers, seconds, w -> {
            while (true) {
                int k = nextSlot.getAndIncrement();
                long due = w.start + (long) (k * interval);
                if (due >= w.deadline) {
                    break;
                }
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                long t0 = System.nanoTime();
                if (t0 - due > OPEN_LOOP_MAX_LATE_NANOS) {
                    w.dropped++;
                    continue;
                }
                if (!takeFromBudget()) {
                    break;
                }
                w.exchange(base + k, due, t0);
            }
        });
        slotBase.addAndGet(nextSlot.get());
        return phase;
    }

    /**
     * Every post sent, against the workspaces' publications: slots go round-robin, so no workspace gets more than
     * sent / W + 1; the load stops (and the results say so) before any could pass 990 of its 1,000.
     */
    final java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
    volatile boolean budgetNoted;

    boolean takeFromBudget() {
        if (sent.incrementAndGet() <= (long) (publicationsPerMonth - 12) * workspaceCount) {
            return true;
        }
        sent.decrementAndGet();
        if (!budgetNoted) {
            budgetNoted = true;
            notes.append("- **The workspaces' test publications ran out** (").append(publicationsPerMonth - 12).append(" posts each sent): ")
                    .append("the load stopped early; raise --workspaces.\n");
        }
        return false;
    }

    boolean budgetExhausted() {
        return sent.get() >= (long) (publicationsPerMonth - 12) * workspaceCount;
    }

    /** Request numbers of the open loop continue after the pacer's (idempotency keys stay unique). */
    final java.util.concurrent.atomic.AtomicLong slotBase = new java.util.concurrent.atomic.AtomicLong(1L << 40);

    interface Loop {
        void run(Worker w) throws IOException;
    }

    void runWorkers(Phase phase, Worker[] workers, int seconds, Loop loop) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        Thread[] threads = new Thread[workers.length];
        for (int i = 0; i < workers.length; i++) {
            Worker w = workers[i];
            threads[i] = new Thread(() -> {
                try {
                    go.await();
                    loop.run(w);
                } catch (Exception e) {
                    w.failure = e;
                }
            }, "load-" + i);
            threads[i].start();
        }
        phase.dbBefore = databaseCounters();
        CpuSnapshot before = CpuSnapshot.take(state);
        long start = System.nanoTime();
        long deadline = start + seconds * 1_000_000_000L;
        for (Worker w : workers) {
            w.start = start;
            w.deadline = deadline;
        }
        phase.startNanos = start;
        phase.startedAt = Instant.now();
        phase.perSecond = new long[seconds + 2];
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        long end = System.nanoTime();
        phase.endedAt = Instant.now();
        CpuSnapshot after = CpuSnapshot.take(state);
        phase.nanos = end - start;
        phase.load = CpuUse.between(before, after);
        phase.cpuBefore = before;
        for (Worker w : workers) {
            w.close();
            if (w.failure != null) {
                throw new IllegalStateException("load worker failed", w.failure);
            }
            phase.latencies.addAll(w.latencies);
            phase.serviceTimes.addAll(w.serviceTimes);
            w.others.forEach((k, v) -> phase.others.merge(k, v, Long::sum));
            phase.postIds.addAll(w.postIds);
            phase.ioErrors += w.ioErrors;
            phase.dropped += w.dropped;
            for (int i = 0; i < w.perSecond.length && i < phase.perSecond.length; i++) {
                phase.perSecond[i] += w.perSecond[i];
            }
        }
        if (phase.ioErrors > 0) {
            phase.others.merge("I/O error", phase.ioErrors, Long::sum);
        }
    }
}
