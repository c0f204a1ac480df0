package dev.herald.gateway.repository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.gateway.repository.AdmissionStatements.CountRequest;
import dev.herald.gateway.repository.AdmissionStatements.Counts;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
class RateWindowLeasesTest {
    static final Instant WINDOW = Instant.parse("2026-11-22T10:15:00Z");
    static final Instant PERIOD = Instant.parse("2026-11-01T00:00:00Z");
    static final long UNLIMITED = Long.MAX_VALUE;

    @Inject
    AdmissionStatements counters;

    @Inject
    Pool pool;

    /** A batcher that counts the requests sent to it, that is, to the database. */
    static final class CountingBatcher extends AdmissionBatcher {
        final AtomicInteger sent = new AtomicInteger();

        CountingBatcher(AdmissionStatements counters) {
            super(counters);
        }

        @Override
        public Uni<Counts> count(CountRequest request) {
            sent.incrementAndGet();
            return super.count(request);
        }
    }

    private static String subject() {
        return "ws_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24) + ":test";
    }

    private static CountRequest exempt(String subject, int perMinute, long monthly) {
        return new CountRequest(subject, WINDOW, PERIOD, false, perMinute, monthly);
    }

    /** Request {@code n} of a busy client: 10,000 a second from the window's first second on. */
    private static Instant busy(int n) {
        return WINDOW.plusSeconds(1).plusNanos(100_000L * n);
    }

    /**
     * Request {@code 0..times-1}, each once the one before it was answered, as one step of the asserter: a step per
     * request would make a chain of operators hundreds deep, whose subscription overflows a thread's stack.
     */
    private static Uni<Void> inTurn(int times, IntFunction<Uni<?>> request) {
        return Multi.createFrom()
                .range(0, times)
                .onItem()
                .transformToUniAndConcatenate(request::apply)
                .collect()
                .last()
                .replaceWithVoid();
    }

    private Uni<Integer> windowCountInDatabase(String subject) {
        return pool.preparedQuery(
                        "select request_count from rate_limit_windows where subject = $1 and window_start = $2")
                .execute(Tuple.of(subject, WINDOW.atOffset(ZoneOffset.UTC)))
                .map(rows -> rows.iterator().next().getInteger("request_count"));
    }

    @Test
    @RunOnVertxContext
    void aQuietWorkspaceIsCountedRequestByRequest(UniAsserter asserter) {
        CountingBatcher batcher = new CountingBatcher(counters);
        RateWindowLeases leases = new RateWindowLeases(batcher);
        String subject = subject();
        List<Counts> answers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Instant now = WINDOW.plusSeconds(1 + 2L * i); // one request every two seconds
            asserter.execute(
                    () -> leases.count(exempt(subject, 1_000, UNLIMITED), now).invoke(answers::add));
        }
        asserter.assertThat(() -> windowCountInDatabase(subject), count -> {
            assertThat(answers)
                    .extracting(Counts::windowCount)
                    .containsExactlyElementsOf(
                            IntStream.rangeClosed(1, 20).boxed().toList());
            assertThat(batcher.sent).hasValue(20);
            assertThat(count).isEqualTo(20);
        });
    }

    @Test
    @RunOnVertxContext
    void aBusyWorkspaceIsCountedAFewPositionsAtATimeAndEachPositionOnce(UniAsserter asserter) {
        CountingBatcher batcher = new CountingBatcher(counters);
        RateWindowLeases leases = new RateWindowLeases(batcher);
        String subject = subject();
        List<Counts> answers = new ArrayList<>();
        asserter.execute(() -> inTurn(
                1_500,
                i -> leases.count(exempt(subject, 100_000, UNLIMITED), busy(i)).invoke(answers::add)));
        asserter.assertThat(() -> windowCountInDatabase(subject), count -> {
            // the request renewing a lease gets its position before those left in the current lease are used up
            assertThat(answers)
                    .extracting(Counts::windowCount)
                    .containsExactlyInAnyOrderElementsOf(
                            IntStream.rangeClosed(1, 1_500).boxed().toList());
            // the lease grows with the rate (n requests in the first second: n / 20 positions) up to its cap
            assertThat(batcher.sent.get()).isLessThan(150);
            // the database holds every position handed out, plus at most the unused current and next lease
            assertThat(count).isBetween(1_500, 1_500 + 2 * RateWindowLeases.MAX_LEASE);
        });
    }

    @Test
    @RunOnVertxContext
    void twoReplicasRacingPastTheLimitAdmitExactlyTheLimitAndNeverOnePositionTwice(UniAsserter asserter) {
        CountingBatcher first = new CountingBatcher(counters);
        CountingBatcher second = new CountingBatcher(counters);
        List<RateWindowLeases> replicas = List.of(new RateWindowLeases(first), new RateWindowLeases(second));
        String subject = subject();
        int limit = 500;
        List<Counts> answers = new ArrayList<>();
        // 150 rounds of 10 concurrent requests, 5 at each replica: 1,500 requests for 500 places
        asserter.execute(() -> inTurn(150, round -> {
            Instant now = busy(round * 10);
            List<Uni<Counts>> concurrent = new ArrayList<>();
            for (int n = 0; n < 10; n++) {
                concurrent.add(replicas.get(n % 2).count(exempt(subject, limit, UNLIMITED), now));
            }
            return Uni.join().all(concurrent).andFailFast().invoke(answers::addAll);
        }));
        asserter.assertThat(() -> windowCountInDatabase(subject), count -> {
            List<Integer> admitted = answers.stream()
                    .map(Counts::windowCount)
                    .filter(position -> position <= limit)
                    .toList();
            assertThat(admitted).hasSize(limit).doesNotHaveDuplicates();
            assertThat(first.sent.get() + second.sent.get()).isLessThan(1_500 / 2);
            // refusals past the known limit were answered without counting them in the database
            assertThat(count).isLessThan(1_000);
        });
    }

    @Test
    @RunOnVertxContext
    void aFullWindowIsRefusedWithoutAnotherStatement(UniAsserter asserter) {
        CountingBatcher batcher = new CountingBatcher(counters);
        RateWindowLeases leases = new RateWindowLeases(batcher);
        String subject = subject();
        List<Counts> answers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            Instant now = WINDOW.plusSeconds(1 + i);
            asserter.execute(
                    () -> leases.count(exempt(subject, 5, UNLIMITED), now).invoke(answers::add));
        }
        asserter.assertThat(() -> windowCountInDatabase(subject), count -> {
            assertThat(answers.subList(0, 5)).extracting(Counts::windowCount).containsExactly(1, 2, 3, 4, 5);
            assertThat(answers.subList(5, 16)).extracting(Counts::windowCount).allMatch(position -> position > 5);
            assertThat(batcher.sent).hasValue(5);
            assertThat(count).isEqualTo(5);
        });
    }

    @Test
    @RunOnVertxContext
    void leasedPositionsAreNotUsedOnceAMeteredRequestSpentTheAllowanceAndAreAgainAfterItsRefund(UniAsserter asserter) {
        CountingBatcher batcher = new CountingBatcher(counters);
        RateWindowLeases leases = new RateWindowLeases(batcher);
        String subject = subject();
        asserter.execute(() -> inTurn(400, i -> leases.count(exempt(subject, 100_000, 1), busy(i))));
        // the allowance of 1 is taken by a metered request
        asserter.assertThat(
                () -> leases.count(new CountRequest(subject, WINDOW, PERIOD, true, 100_000, 1), busy(400)),
                counts -> assertThat(counts.metered()).isTrue());
        asserter.execute(() -> batcher.sent.set(0));
        // the next exempt request is not answered from the lease, and sees the allowance spent
        asserter.assertThat(() -> leases.count(exempt(subject, 100_000, 1), busy(401)), counts -> {
            assertThat(counts.meterUsedBefore()).isEqualTo(1);
            assertThat(batcher.sent).hasValue(1);
        });
        asserter.execute(() -> {
            leases.refunded(subject, PERIOD);
            return counters.refund(subject, PERIOD);
        });
        asserter.assertThat(
                () -> leases.count(exempt(subject, 100_000, 1), busy(402)),
                counts -> assertThat(counts.meterUsedBefore()).isZero());
    }

    @Test
    @RunOnVertxContext
    void aNewMinuteStartsFromItsFirstPositionWhateverTheLastMinuteLeased(UniAsserter asserter) {
        RateWindowLeases leases = new RateWindowLeases(new CountingBatcher(counters));
        String subject = subject();
        asserter.execute(() -> inTurn(400, i -> leases.count(exempt(subject, 100_000, UNLIMITED), busy(i))));
        Instant nextWindow = WINDOW.plusSeconds(60);
        asserter.assertThat(
                () -> leases.count(
                        new CountRequest(subject, nextWindow, PERIOD, false, 100_000, UNLIMITED),
                        nextWindow.plusMillis(5)),
                counts -> assertThat(counts.windowCount()).isEqualTo(1));
    }
}
