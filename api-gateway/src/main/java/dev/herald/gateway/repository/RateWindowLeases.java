package dev.herald.gateway.repository;

import dev.herald.gateway.repository.AdmissionStatements.CountRequest;
import dev.herald.gateway.repository.AdmissionStatements.Counts;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Positions of a busy workspace's rate window taken ahead in PostgreSQL, so most of its requests are counted
 * without a statement of their own. The shared count stays the truth: a lease is a range of positions the
 * statement added to the window for this replica, so no replica can ever hand out a position another one has,
 * and requests beyond the limit are refused whichever replica sees them.
 *
 * <p>A lease is only as large as this replica's recent rate would use in {@link #LEASE_HORIZON_SECONDS}, at most
 * {@link #MAX_LEASE} positions and never more than 1/{@link #REMAINING_SHARE} of what the window has left: a quiet
 * workspace is counted request by request, as before leases, and so are the last positions of a window. What a
 * lease costs is under-admission: positions a replica leased but did not use (a drop in its rate, its lease
 * expiring after {@link #LEASE_LIFETIME}) are lost to the other replicas for that minute; a replica holds at most
 * two leases at a time (the next one is taken when a quarter of the current one is left, so the requests meanwhile
 * need not wait for it).
 *
 * <p>Only requests that take no meter unit use leased positions; a metered request's unit must be granted by the
 * statement against the shared meter. They also refuse locally once the window is known to be full, so a client
 * hammering past its limit costs the database nothing.
 */
@ApplicationScoped
public class RateWindowLeases {
    static final double LEASE_HORIZON_SECONDS = 0.05;
    static final int MAX_LEASE = 64;
    static final int REMAINING_SHARE = 8;
    static final Duration LEASE_LIFETIME = Duration.ofSeconds(1);
    private static final int MAX_SUBJECTS = 10_000;

    private final AdmissionBatcher batcher;
    private final ConcurrentHashMap<String, Subject> subjects = new ConcurrentHashMap<>();

    public RateWindowLeases(AdmissionBatcher batcher) {
        this.batcher = batcher;
    }

    /** Counts the request (its {@code lease} is decided here), answering from this replica's lease when it can. */
    public Uni<Counts> count(CountRequest request, Instant now) {
        if (subjects.size() >= MAX_SUBJECTS) {
            subjects.values().removeIf(subject -> subject.endedBefore(request.windowStart()));
            if (subjects.size() >= MAX_SUBJECTS) {
                // All of this minute: start over rather than scan them again on every request. The database keeps the
                // counts; what is forgotten is only each subject's unused lease (bounded under-admission, as ever).
                subjects.clear();
            }
        }
        Subject subject = subjects.computeIfAbsent(request.subject(), ignored -> new Subject());
        int lease;
        synchronized (subject) {
            Counts local = subject.answerLocally(request, now);
            if (local != null) {
                return Uni.createFrom().item(local);
            }
            lease = subject.leaseToAsk(request, now);
        }
        CountRequest withLease = new CountRequest(
                request.subject(),
                request.windowStart(),
                request.periodStart(),
                request.meter(),
                request.perMinute(),
                request.monthlyLimit(),
                lease);
        return batcher.count(withLease)
                .invoke(counts -> {
                    synchronized (subject) {
                        subject.learn(withLease, counts, now);
                    }
                })
                .onFailure()
                .invoke(failure -> {
                    synchronized (subject) {
                        subject.leaseAnswered(withLease);
                    }
                });
    }

    /** A unit given back to the meter: this replica's view of the meter follows at once. */
    public void refunded(String subjectKey, Instant periodStart) {
        Subject subject = subjects.get(subjectKey);
        if (subject != null) {
            synchronized (subject) {
                subject.refunded(periodStart);
            }
        }
    }

    /** One workspace+mode's window as this replica knows it; guarded by its own monitor. */
    private static final class Subject {
        private Instant windowStart = Instant.EPOCH;
        private int requestsThisWindow;
        private int requestsLastWindow;
        /** Positions of the window known to be taken, by any replica (the highest one seen). */
        private int knownCount;
        /** This replica's unused leased positions: {@code leaseNext..leaseEnd}. */
        private int leaseNext = 1;

        private int leaseEnd;
        private Instant leaseExpires = Instant.EPOCH;
        private int leaseSize;
        /** The lease that follows, taken while the current one ran low: {@code nextFirst..nextEnd}. */
        private int nextFirst = 1;

        private int nextEnd;
        private Instant nextExpires = Instant.EPOCH;
        private boolean leaseAsked;
        /** The meter as last seen, for {@code meterPeriod}; -1 when not known. */
        private Instant meterPeriod = Instant.EPOCH;

        private long meterUsed = -1;

        Counts answerLocally(CountRequest request, Instant now) {
            if (request.windowStart().isBefore(windowStart)) {
                return null; // a late request of the previous minute: the statement counts it there
            }
            enter(request.windowStart());
            requestsThisWindow++;
            if (!leaseUsable(now) && nextFirst <= nextEnd) {
                leaseNext = nextFirst;
                leaseEnd = nextEnd;
                leaseExpires = nextExpires;
                nextEnd = nextFirst - 1;
            }
            // The request that finds the lease running low renews it: it waits for a statement, the others go on.
            if (!request.meter()
                    && leaseUsable(now)
                    && meterKnownUnspent(request)
                    && !(runningLow() && canAsk() && wantedLease(request, now) > 0)) {
                return new Counts(leaseNext++, meterUsed, false);
            }
            if (knownCount >= request.perMinute()) {
                // Full: any position still to come is beyond the limit, whoever counts it.
                return new Counts(
                        knownCount + 1, meterPeriod.equals(request.periodStart()) ? Math.max(0, meterUsed) : 0, false);
            }
            return null;
        }

        int leaseToAsk(CountRequest request, Instant now) {
            if (!canAsk() || (leaseUsable(now) && !runningLow())) {
                return 0;
            }
            int lease = wantedLease(request, now);
            leaseAsked = lease > 0;
            return lease;
        }

        private int wantedLease(CountRequest request, Instant now) {
            double seconds = Math.max(1.0, Duration.between(windowStart, now).toMillis() / 1000.0);
            double rate = Math.max(requestsThisWindow / seconds, requestsLastWindow / 60.0);
            int wanted = Math.min(MAX_LEASE, (int) (rate * LEASE_HORIZON_SECONDS));
            int remaining = request.perMinute() - knownCount - 1;
            return Math.max(0, Math.min(wanted, remaining / REMAINING_SHARE));
        }

        void learn(CountRequest request, Counts counts, Instant now) {
            if (!request.windowStart().equals(windowStart)) {
                return; // an answer for a minute that is over here
            }
            knownCount =
                    Math.max(knownCount, Math.max(counts.windowCount(), counts.leaseFirst() + counts.leaseSize() - 1));
            if (request.lease() > 0) {
                leaseAsked = false;
                Instant windowEnd = windowStart.plus(1, ChronoUnit.MINUTES);
                Instant expires = now.plus(LEASE_LIFETIME).isBefore(windowEnd) ? now.plus(LEASE_LIFETIME) : windowEnd;
                int first = counts.leaseFirst();
                int end = counts.leaseFirst() + counts.leaseSize() - 1;
                leaseSize = counts.leaseSize();
                if (leaseUsable(now)) {
                    nextFirst = first;
                    nextEnd = end;
                    nextExpires = expires;
                } else {
                    leaseNext = first;
                    leaseEnd = end;
                    leaseExpires = expires;
                }
            }
            if (!meterPeriod.equals(request.periodStart())) {
                meterPeriod = request.periodStart();
                meterUsed = -1;
            }
            // An answer that took no unit shows the meter as it is; granted units may complete out of order.
            meterUsed = counts.metered() ? Math.max(meterUsed, counts.meterUsedBefore() + 1) : counts.meterUsedBefore();
        }

        void leaseAnswered(CountRequest request) {
            if (request.lease() > 0 && request.windowStart().equals(windowStart)) {
                leaseAsked = false;
            }
        }

        void refunded(Instant periodStart) {
            if (meterPeriod.equals(periodStart) && meterUsed > 0) {
                meterUsed--;
            }
        }

        synchronized boolean endedBefore(Instant window) {
            return windowStart.isBefore(window);
        }

        private boolean leaseUsable(Instant now) {
            return leaseNext <= leaseEnd && now.isBefore(leaseExpires);
        }

        /** A quarter of the lease left: time to take the next one, so the requests meanwhile need not wait. */
        private boolean runningLow() {
            return leaseEnd - leaseNext + 1 <= leaseSize / 4;
        }

        private boolean canAsk() {
            return !leaseAsked && nextFirst > nextEnd;
        }

        private boolean meterKnownUnspent(CountRequest request) {
            return meterPeriod.equals(request.periodStart()) && meterUsed >= 0 && meterUsed < request.monthlyLimit();
        }

        private void enter(Instant window) {
            if (window.equals(windowStart)) {
                return;
            }
            requestsLastWindow = windowStart.plus(1, ChronoUnit.MINUTES).equals(window) ? requestsThisWindow : 0;
            windowStart = window;
            requestsThisWindow = 0;
            knownCount = 0;
            leaseNext = 1;
            leaseEnd = 0;
            leaseExpires = Instant.EPOCH;
            leaseSize = 0;
            nextFirst = 1;
            nextEnd = 0;
            leaseAsked = false;
        }
    }
}
