package dev.herald.usage.repository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.RepeatedLookupPlans;
import dev.herald.usage.catalog.Meter;
import dev.herald.usage.model.ReservationEntity;
import dev.herald.usage.support.UsageTestSupport;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.hibernate.reactive.mutiny.Mutiny;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = RealInfrastructure.class, initArgs = @ResourceArg(name = "database", value = "usage_test"))
class UsageRepositoryTest {
    private static final UsagePeriod MARCH =
            new UsagePeriod(Instant.parse("2026-03-01T00:00:00Z"), Instant.parse("2026-04-01T00:00:00Z"));
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

    @Inject
    UsageMeterRepository meters;

    @Inject
    ConnectedAccountRepository accounts;

    @Inject
    SubscriptionRepository subscriptions;

    @Inject
    ReservationRepository reservations;

    @Inject
    Mutiny.SessionFactory sessionFactory;

    @Test
    @RunOnVertxContext
    void connectedAccountSlotsAreCountedWithQueryPlansKeptAcrossCalls(UniAsserter asserter) {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        Statistics statistics = sessionFactory.getStatistics();
        statistics.setStatisticsEnabled(true);
        long[] missesAfterFirstRound = new long[1];
        asserter.execute(() -> Panache.withTransaction(() -> accounts.add(workspace, Mode.LIVE, "acc_first")
                .chain(() -> accounts.add(workspace, Mode.TEST, "acc_other_mode"))));
        asserter.execute(() ->
                slotsRound(workspace).invoke(() -> missesAfterFirstRound[0] = statistics.getQueryPlanCacheMissCount()));
        for (int i = 0; i < 10; i++) {
            asserter.assertThat(
                    () -> slotsRound(workspace), seen -> assertThat(seen).containsExactly(1L, 1L, 0L));
        }
        asserter.execute(
                () -> assertThat(statistics.getQueryPlanCacheMissCount()).isEqualTo(missesAfterFirstRound[0]));
        asserter.execute(() -> statistics.setStatisticsEnabled(false));
    }

    /** Locks the tenant's slots, then answers its live count and whether it holds two accounts (1 or 0). */
    private Uni<List<Long>> slotsRound(String workspace) {
        return Panache.withTransaction(() -> accounts.lockTenant(workspace, Mode.LIVE)
                .chain(() -> accounts.count(workspace, Mode.LIVE))
                .chain(count -> accounts.contains(workspace, Mode.LIVE, "acc_first")
                        .chain(first -> accounts.contains(workspace, Mode.LIVE, "acc_other_mode")
                                .map(other -> List.of(count, first ? 1L : 0L, other ? 1L : 0L)))));
    }

    @Test
    @RunOnVertxContext
    void aReservationIsReadWithItsTenantsSubscriptionInOneQuery(UniAsserter asserter) {
        String planned = ResourceIds.newId(IdPrefix.WORKSPACE);
        String unplanned = ResourceIds.newId(IdPrefix.WORKSPACE);
        Statistics statistics = sessionFactory.getStatistics();
        statistics.setStatisticsEnabled(true);
        long[] queriesBefore = new long[1];
        asserter.execute(() -> Panache.withTransaction(() -> subscriptions
                .lockOrCreate(planned, Mode.LIVE, NOW)
                .chain(() -> reservations.persist(
                        reservation(planned, "pub_planned"), reservation(unplanned, "pub_unplanned")))));
        asserter.execute(() -> queriesBefore[0] = statistics.getQueryExecutionCount());
        asserter.assertThat(
                () -> Panache.withSession(
                        () -> reservations.findInTenantWithSubscription(planned, Mode.LIVE, "pub_planned")),
                found -> {
                    assertThat(found.reservation().id).isEqualTo("pub_planned");
                    assertThat(found.subscription().workspaceId).isEqualTo(planned);
                    assertThat(found.subscription().plan).isEqualTo("free");
                });
        asserter.execute(() -> assertThat(statistics.getQueryExecutionCount()).isEqualTo(queriesBefore[0] + 1));
        asserter.assertThat(
                () -> Panache.withSession(
                        () -> reservations.findInTenantWithSubscription(unplanned, Mode.LIVE, "pub_unplanned")),
                found -> {
                    assertThat(found.reservation().workspaceId).isEqualTo(unplanned);
                    assertThat(found.subscription()).isNull();
                });
        // Another mode or another tenant's id is no reservation of this tenant.
        asserter.assertThat(
                () -> Panache.withSession(
                        () -> reservations.findInTenantWithSubscription(planned, Mode.TEST, "pub_planned")),
                found -> assertThat(found).isNull());
        asserter.assertThat(
                () -> Panache.withSession(
                        () -> reservations.findInTenantWithSubscription(planned, Mode.LIVE, "pub_unplanned")),
                found -> assertThat(found).isNull());
        asserter.execute(() -> statistics.setStatisticsEnabled(false));
    }

    @Test
    @RunOnVertxContext
    void aReservationReadForUpdateWithItsSubscriptionLocksOnlyTheReservation(UniAsserter asserter) {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        asserter.execute(() -> Panache.withTransaction(() -> subscriptions
                .lockOrCreate(workspace, Mode.LIVE, NOW)
                .chain(() -> reservations.persist(reservation(workspace, "pub_locked")))));
        asserter.assertThat(
                () -> Panache.withTransaction(() -> reservations
                        .findInTenantForUpdateWithSubscription(workspace, Mode.LIVE, "pub_locked")
                        .map(found -> List.of(
                                found.reservation().id,
                                found.subscription().workspaceId,
                                lockedElsewhere(
                                        "select 1 from reservations where workspace_id = ? and id = ? for update nowait",
                                        workspace,
                                        "pub_locked"),
                                lockedElsewhere(
                                        "select 1 from subscriptions where workspace_id = ? and mode = 'live' for update nowait",
                                        workspace)))),
                seen -> assertThat(seen).containsExactly("pub_locked", workspace, true, false));
    }

    /** Whether another connection finds the row locked (it asks without waiting). */
    private static boolean lockedElsewhere(String sql, Object... parameters) {
        try (Connection connection = UsageTestSupport.database();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.executeQuery().close();
            return false;
        } catch (SQLException e) {
            if ("55P03".equals(e.getSQLState())) {
                return true;
            }
            throw new AssertionError(e);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static ReservationEntity reservation(String workspace, String id) {
        return UsageTestSupport.reservedPublication(workspace, Mode.LIVE, id, MARCH, NOW);
    }

    @Test
    @RunOnVertxContext
    void aMeterRowIsCreatedAtZeroOnceAndKeepsWhatWasCounted(UniAsserter asserter) {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        asserter.assertThat(
                () -> Panache.withTransaction(
                        () -> meters.lockOrCreate(workspace, Mode.LIVE, Meter.PUBLICATIONS, MARCH, NOW)
                                .invoke(row -> row.reserved += 5)),
                row -> assertThat(row.periodEnd).isEqualTo(MARCH.end()));
        asserter.assertThat(
                () -> Panache.withTransaction(
                        () -> meters.lockOrCreate(workspace, Mode.LIVE, Meter.PUBLICATIONS, MARCH, NOW)),
                row -> {
                    assertThat(row.reserved).isEqualTo(5);
                    assertThat(row.used).isZero();
                });
    }

    @Test
    @RunOnVertxContext
    void metersAreReadPerWorkspaceModeAndPeriod(UniAsserter asserter) {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        UsagePeriod april = new UsagePeriod(MARCH.end(), Instant.parse("2026-05-01T00:00:00Z"));
        asserter.execute(() ->
                Panache.withTransaction(() -> meters.lockOrCreate(workspace, Mode.LIVE, Meter.PUBLICATIONS, MARCH, NOW)
                        .invoke(row -> row.used = 2)
                        .flatMap(x -> meters.lockOrCreate(workspace, Mode.LIVE, Meter.MEDIA_BYTES, MARCH, NOW))
                        .invoke(row -> row.used = 7)
                        .flatMap(x -> meters.lockOrCreate(workspace, Mode.TEST, Meter.PUBLICATIONS, MARCH, NOW))
                        .invoke(row -> row.used = 9)
                        .flatMap(x -> meters.lockOrCreate(workspace, Mode.LIVE, Meter.PUBLICATIONS, april, NOW))
                        .invoke(row -> row.used = 11)
                        .flatMap(x -> meters.lockOrCreate(
                                ResourceIds.newId(IdPrefix.WORKSPACE), Mode.LIVE, Meter.PUBLICATIONS, MARCH, NOW))));
        asserter.assertThat(
                () -> Panache.withSession(() -> meters.inPeriod(workspace, Mode.LIVE, MARCH.start())), rows -> {
                    assertThat(rows).containsOnlyKeys(Meter.PUBLICATIONS, Meter.MEDIA_BYTES);
                    assertThat(rows.get(Meter.PUBLICATIONS).used).isEqualTo(2);
                    assertThat(rows.get(Meter.MEDIA_BYTES).used).isEqualTo(7);
                });
    }

    @Test
    @RunOnVertxContext
    void connectedAccountsAreCountedOncePerAccountAndMode(UniAsserter asserter) {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        asserter.execute(() -> Panache.withTransaction(() -> accounts.add(workspace, Mode.LIVE, "acc_1")
                .flatMap(x -> accounts.add(workspace, Mode.LIVE, "acc_1"))
                .flatMap(x -> accounts.add(workspace, Mode.LIVE, "acc_2"))
                .flatMap(x -> accounts.add(workspace, Mode.TEST, "acc_3"))));
        asserter.assertThat(
                () -> Panache.withSession(() -> accounts.count(workspace, Mode.LIVE)),
                count -> assertThat(count).isEqualTo(2));
        asserter.execute(() -> Panache.withTransaction(() -> accounts.remove(workspace, Mode.LIVE, "acc_1")));
        asserter.assertThat(
                () -> Panache.withSession(() -> accounts.count(workspace, Mode.LIVE)),
                count -> assertThat(count).isEqualTo(1));
    }

    @Test
    @RunOnVertxContext
    void aSubscriptionIsReadWithAGenericPlanOnceItsConnectionHasRunItAFewTimes(UniAsserter asserter) {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        asserter.execute(() -> Panache.withTransaction(() -> subscriptions.lockOrCreate(workspace, Mode.LIVE, NOW)));
        asserter.assertThat(
                () -> Panache.withSession(() -> RepeatedLookupPlans.customPlans(
                        () -> subscriptions.findInTenant(workspace, Mode.LIVE), 10, "from subscriptions")),
                custom -> assertThat(custom)
                        .singleElement()
                        .satisfies(plans -> assertThat(plans).isLessThanOrEqualTo(5L)));
    }

    @Test
    @RunOnVertxContext
    void aMissingSubscriptionIsCreatedAsFree(UniAsserter asserter) {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        asserter.assertThat(
                () -> Panache.withSession(() -> subscriptions.findInTenant(workspace, Mode.LIVE)),
                row -> assertThat(row).isNull());
        asserter.assertThat(
                () -> Panache.withTransaction(() -> subscriptions.lockOrCreate(workspace, Mode.LIVE, NOW)), row -> {
                    assertThat(row.plan).isEqualTo("free");
                    assertThat(row.planSource).isEqualTo("free");
                    assertThat(row.pendingPlan).isNull();
                });
        asserter.assertThat(
                () -> Panache.withSession(() -> subscriptions.findInTenant(workspace, Mode.TEST)),
                row -> assertThat(row).isNull());
    }
}
