package dev.herald.profiles.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.paging.CursorPosition;
import dev.herald.profiles.model.ProfileEntity;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.RepeatedLookupPlans;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;
import org.hibernate.reactive.mutiny.Mutiny;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "profiles_test"))
class ProfileRepositoryTest {
    @Inject
    ProfileRepository profiles;

    @Inject
    ProfileHoldRepository holds;

    @Inject
    Mutiny.SessionFactory sessionFactory;

    @Test
    @RunOnVertxContext
    void holdsAreCountedPerKindWithOneQueryPlanHoweverOftenTheyAreCounted(UniAsserter asserter) {
        String profile = ResourceIds.newId(IdPrefix.PROFILE);
        Statistics statistics = sessionFactory.getStatistics();
        statistics.setStatisticsEnabled(true);
        long[] missesAfterFirstCount = new long[1];
        asserter.execute(() -> Panache.withTransaction(() -> holds.add(profile, "pending_posts", "pst_one")
                .chain(() -> holds.add(profile, "accounts", "acc_one"))
                .chain(() -> holds.add(profile, "pending_posts", "pst_two"))
                .chain(() -> holds.add(ResourceIds.newId(IdPrefix.PROFILE), "accounts", "acc_elsewhere"))));
        asserter.execute(() -> Panache.withSession(() -> holds.countByKind(profile))
                .invoke(() -> missesAfterFirstCount[0] = statistics.getQueryPlanCacheMissCount()));
        for (int i = 0; i < 10; i++) {
            asserter.assertThat(
                    () -> Panache.withSession(() -> holds.countByKind(profile)),
                    counts -> assertThat(counts).containsExactly(entry("accounts", 1L), entry("pending_posts", 2L)));
        }
        asserter.execute(
                () -> assertThat(statistics.getQueryPlanCacheMissCount()).isEqualTo(missesAfterFirstCount[0]));
        asserter.execute(() -> statistics.setStatisticsEnabled(false));
    }

    @Test
    @RunOnVertxContext
    void aProfileIsReadWithAGenericPlanOnceItsConnectionHasRunItAFewTimes(UniAsserter asserter) {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        ProfileEntity profile = profile(workspace, Mode.TEST, "Planned once", Instant.parse("2026-11-26T12:00:00Z"));
        asserter.execute(() -> Panache.withTransaction(() -> profiles.persist(profile)));
        asserter.assertThat(
                () -> Panache.withSession(() -> RepeatedLookupPlans.customPlans(
                        () -> profiles.findInTenant(workspace, Mode.TEST, profile.id), 10, "from profiles")),
                custom -> assertThat(custom)
                        .singleElement()
                        .satisfies(plans -> assertThat(plans).isLessThanOrEqualTo(5L)));
    }

    private static ProfileEntity profile(String workspace, Mode mode, String name, Instant createdAt) {
        ProfileEntity profile = new ProfileEntity();
        profile.id = ResourceIds.newId(IdPrefix.PROFILE);
        profile.workspaceId = workspace;
        profile.mode = mode.wireName();
        profile.name = name;
        profile.createdAt = createdAt;
        profile.updatedAt = createdAt;
        return profile;
    }

    @Test
    @RunOnVertxContext
    void listPageNeverCrossesWorkspaceOrMode(UniAsserter asserter) {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        asserter.execute(() ->
                Panache.withTransaction(() -> profiles.persist(profile(workspace, Mode.TEST, "mine", now))
                        .flatMap(ignored -> profiles.persist(profile(workspace, Mode.LIVE, "live twin", now)))
                        .flatMap(ignored -> profiles.persist(
                                profile(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST, "stranger", now)))));
        asserter.assertThat(
                () -> profiles.listPage(workspace, Mode.TEST, null, null, Optional.empty(), 10),
                page -> assertThat(page).extracting(p -> p.name).containsExactly("mine"));
    }

    @Test
    @RunOnVertxContext
    void keysetPagingBreaksTiesOnEqualTimestampsById(UniAsserter asserter) {
        String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        Instant same = Instant.parse("2026-02-01T00:00:00Z");
        ProfileEntity a = profile(workspace, Mode.TEST, "a", same);
        ProfileEntity b = profile(workspace, Mode.TEST, "b", same);
        ProfileEntity c = profile(workspace, Mode.TEST, "c", same);
        asserter.execute(() -> Panache.withTransaction(
                () -> profiles.persist(a).flatMap(x -> profiles.persist(b)).flatMap(x -> profiles.persist(c))));
        String highest = java.util.stream.Stream.of(a.id, b.id, c.id)
                .max(String::compareTo)
                .orElseThrow();
        asserter.assertThat(
                () -> profiles.listPage(
                        workspace, Mode.TEST, null, null, Optional.of(new CursorPosition(same, highest)), 10),
                page -> assertThat(page)
                        .hasSize(2)
                        .extracting(p -> p.id)
                        .doesNotContain(highest)
                        .isSortedAccordingTo(java.util.Comparator.reverseOrder()));
    }

    @Test
    @RunOnVertxContext
    void holdsAreCountedPerKindAndAddingOneTwiceCountsOnce(UniAsserter asserter) {
        String profileId = ResourceIds.newId(IdPrefix.PROFILE);
        asserter.execute(() -> Panache.withTransaction(() -> holds.add(profileId, "accounts", "acc_1")
                .flatMap(x -> holds.add(profileId, "accounts", "acc_1"))
                .flatMap(x -> holds.add(profileId, "media", "med_1"))));
        asserter.assertThat(
                () -> Panache.withSession(() -> holds.countByKind(profileId)),
                counts -> assertThat(counts)
                        .containsEntry("accounts", 1L)
                        .containsEntry("media", 1L)
                        .hasSize(2));
        asserter.execute(() -> Panache.withTransaction(() -> holds.remove(profileId, "accounts", "acc_1")));
        asserter.assertThat(
                () -> Panache.withSession(() -> holds.countByKind(profileId)),
                counts -> assertThat(counts).containsOnlyKeys("media"));
    }
}
