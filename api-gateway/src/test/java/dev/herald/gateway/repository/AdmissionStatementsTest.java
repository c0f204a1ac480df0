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
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
class AdmissionStatementsTest {
    static final Instant WINDOW = Instant.parse("2026-11-22T10:15:00Z");
    static final Instant PERIOD = Instant.parse("2026-11-01T00:00:00Z");

    @Inject
    AdmissionStatements counters;

    @Inject
    AdmissionBatcher batcher;

    @Inject
    Pool pool;

    private static String subject() {
        return "ws_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24) + ":live";
    }

    private static List<CountRequest> requests(String subject, int count, boolean meter, int perMinute, long monthly) {
        return IntStream.range(0, count)
                .mapToObj(i -> new CountRequest(subject, WINDOW, PERIOD, meter, perMinute, monthly))
                .toList();
    }

    @Test
    @RunOnVertxContext
    void statementsArePreparedOncePerConnectionAndKept(UniAsserter asserter) {
        // the configuration every service shares (common's microprofile-config.properties) keeps them per connection
        String marker = marker();
        asserter.assertThat(
                () -> preparedAfterTwoRuns(
                        "select count(*) as windows from rate_limit_windows where subject = $1 /* " + marker + " */",
                        marker),
                prepared -> assertThat(prepared).isEqualTo(1L));
    }

    @Test
    @RunOnVertxContext
    void aStatementOverTheClientsDefaultLengthIsKeptPreparedToo(UniAsserter asserter) {
        // Vert.x keeps only statements of up to 2,048 characters by default; StatementCachingPoolCreator raises that
        String marker = marker();
        asserter.assertThat(
                () -> preparedAfterTwoRuns(
                        "select count(*) as windows from rate_limit_windows where subject = $1 /* " + marker + " "
                                + "x".repeat(3_000) + " */",
                        marker),
                prepared -> assertThat(prepared).isEqualTo(1L));
    }

    private static String marker() {
        return "statement_" + UUID.randomUUID().toString().replace("-", "");
    }

    /** Runs {@code query} twice on one connection, then counts that connection's prepared statements naming marker. */
    private Uni<Long> preparedAfterTwoRuns(String query, String marker) {
        return pool.withConnection(connection -> connection
                .preparedQuery(query)
                .execute(Tuple.of(subject()))
                .flatMap(first -> connection.preparedQuery(query).execute(Tuple.of(subject())))
                .flatMap(second -> connection
                        .preparedQuery("select count(*) as prepared from pg_prepared_statements"
                                + " where statement like '%' || $1 || '%'")
                        .execute(Tuple.of(marker)))
                .map(rows -> rows.iterator().next().getLong("prepared")));
    }

    @Test
    @RunOnVertxContext
    void oneBatchPlacesEachRequestInTheWindowAndGrantsUnitsInOrderUpToTheAllowance(UniAsserter asserter) {
        String subject = subject();
        // per minute 4, allowance 2: requests 1-2 metered, 3-4 within the rate but over the allowance, 5-6 rate limited
        asserter.assertThat(() -> counters.admitAll(requests(subject, 6, true, 4, 2)), counts -> {
            assertThat(counts).extracting(Counts::windowCount).containsExactly(1, 2, 3, 4, 5, 6);
            assertThat(counts).extracting(Counts::metered).containsExactly(true, true, false, false, false, false);
            assertThat(counts).extracting(Counts::meterUsedBefore).containsExactly(0L, 1L, 2L, 2L, 2L, 2L);
        });
        // the next statement continues the same window and finds the allowance spent
        asserter.assertThat(
                () -> counters.admitAll(requests(subject, 1, true, 100, 2)),
                counts -> assertThat(counts).containsExactly(new Counts(7, 2, false)));
    }

    @Test
    @RunOnVertxContext
    void subjectsInOneBatchCountSeparatelyAndExemptRequestsTakeNoUnit(UniAsserter asserter) {
        String first = subject();
        String second = subject();
        List<CountRequest> mixed = List.of(
                new CountRequest(first, WINDOW, PERIOD, true, 30, 10),
                new CountRequest(second, WINDOW, PERIOD, false, 30, 10),
                new CountRequest(first, WINDOW, PERIOD, false, 30, 10),
                new CountRequest(second, WINDOW, PERIOD, true, 30, 10),
                new CountRequest(first, WINDOW, PERIOD, true, 30, 10));
        // within a subject the metered requests take the first places, then the exempt ones see the meter after them
        asserter.assertThat(
                () -> counters.admitAll(mixed),
                counts -> assertThat(counts)
                        .containsExactly(
                                new Counts(1, 0, true),
                                new Counts(2, 1, false),
                                new Counts(3, 2, false),
                                new Counts(1, 0, true),
                                new Counts(2, 1, true)));
    }

    @Test
    @RunOnVertxContext
    void aLeaseTakesThePositionsAfterItsSubjectsRequestsAndMeteredRequestsStillComeFirst(UniAsserter asserter) {
        String subject = subject();
        List<CountRequest> batch = List.of(
                new CountRequest(subject, WINDOW, PERIOD, false, 30, 10, 2),
                new CountRequest(subject, WINDOW, PERIOD, true, 30, 10, 5),
                new CountRequest(subject, WINDOW, PERIOD, false, 30, 10, 0));
        // the largest lease asked for (5) takes positions 4-8, after the three requests
        asserter.assertThat(
                () -> counters.admitAll(batch),
                counts -> assertThat(counts)
                        .containsExactly(
                                new Counts(2, 1, false, 4, 5),
                                new Counts(1, 0, true, 4, 5),
                                new Counts(3, 1, false, 4, 5)));
        asserter.assertThat(
                () -> counters.admitAll(requests(subject, 1, false, 30, 10)),
                counts -> assertThat(counts).containsExactly(new Counts(9, 1, false)));
    }

    @Test
    @RunOnVertxContext
    void aRequestOfANewMinuteWaitsForTheNextStatementInsteadOfJoiningTheOldMinutesBatch(UniAsserter asserter) {
        String subject = subject();
        List<Uni<Counts>> requests = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Instant window = i % 2 == 0 ? WINDOW : WINDOW.plusSeconds(60);
            requests.add(batcher.count(new CountRequest(subject, window, PERIOD, false, 1_000, 25)));
        }
        // the two minutes' requests never share a statement (it could not count them), and each minute counts 1, 2, 3
        asserter.assertThat(() -> Uni.join().all(requests).andFailFast(), counts -> {
            assertThat(List.of(counts.get(0), counts.get(2), counts.get(4)))
                    .extracting(Counts::windowCount)
                    .containsExactlyInAnyOrder(1, 2, 3);
            assertThat(List.of(counts.get(1), counts.get(3), counts.get(5)))
                    .extracting(Counts::windowCount)
                    .containsExactlyInAnyOrder(1, 2, 3);
        });
    }

    @Test
    @RunOnVertxContext
    void racingStatementsNeverGrantMoreThanTheLastUnits(UniAsserter asserter) {
        String subject = subject();
        // 90 of 100 units are spent; 50 concurrent statements of 3 requests each race for the last 10
        asserter.execute(() -> counters.admitAll(requests(subject, 90, true, 1_000, 100)));
        List<Uni<List<Counts>>> racers = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            racers.add(counters.admitAll(requests(subject, 3, true, 1_000, 100)));
        }
        asserter.assertThat(() -> Uni.join().all(racers).andFailFast(), answers -> {
            List<Counts> all = answers.stream().flatMap(List::stream).toList();
            assertThat(all).filteredOn(Counts::metered).hasSize(10);
            // every granted unit is a different one: 90..99 before the grant
            List<Long> granted = new ArrayList<>(all.stream()
                    .filter(Counts::metered)
                    .map(Counts::meterUsedBefore)
                    .toList());
            Collections.sort(granted);
            assertThat(granted)
                    .containsExactlyElementsOf(
                            IntStream.range(90, 100).mapToObj(Long::valueOf).toList());
            assertThat(all)
                    .extracting(Counts::windowCount)
                    .doesNotHaveDuplicates()
                    .allMatch(n -> n > 90 && n <= 240);
        });
    }

    @Test
    @RunOnVertxContext
    void concurrentRequestsThroughTheBatcherEachGetTheirOwnPlace(UniAsserter asserter) {
        String subject = subject();
        List<Uni<Counts>> requests = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            requests.add(batcher.count(new CountRequest(subject, WINDOW, PERIOD, true, 1_000, 25)));
        }
        asserter.assertThat(() -> Uni.join().all(requests).andFailFast(), counts -> {
            assertThat(counts)
                    .extracting(Counts::windowCount)
                    .containsExactlyInAnyOrderElementsOf(
                            IntStream.rangeClosed(1, 40).boxed().toList());
            assertThat(counts).filteredOn(Counts::metered).hasSize(25);
        });
    }
}
