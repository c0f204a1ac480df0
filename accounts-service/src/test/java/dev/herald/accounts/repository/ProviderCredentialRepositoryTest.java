package dev.herald.accounts.repository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.accounts.support.AccountsTestSupport;
import dev.herald.accounts.support.FakeServices;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.hibernate.reactive.mutiny.Mutiny;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = AccountsTestSupport.DATABASE))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ProviderCredentialRepositoryTest {
    @Inject
    ProviderCredentialRepository credentials;

    @Inject
    ProviderReadCacheRepository readCache;

    @Inject
    ProviderReadCacheStatements cachedReads;

    @Inject
    ProviderRevocationRepository revocations;

    @Inject
    Mutiny.SessionFactory sessionFactory;

    private String account;

    @BeforeEach
    void liveAccount() throws Exception {
        account = ResourceIds.newId(IdPrefix.ACCOUNT);
        AccountsTestSupport.execute("""
                insert into accounts (id, workspace_id, mode, platform, external_id, name, username, status, connected_at,
                                      created_at, updated_at)
                values (?, ?, 'live', 'linkedin', ?, 'Ada', 'ada', 'connected', now(), now(), now())""", account, ResourceIds.newId(IdPrefix.WORKSPACE), account);
    }

    @Test
    @RunOnVertxContext
    void aGrantReadInTheSessionThatReplacedItIsTheNewOne(UniAsserter asserter) {
        asserter.assertThat(
                () -> Panache.withTransaction(() -> credentials.find(account)),
                stored -> assertThat(stored).isNull());
        asserter.assertThat(
                () -> Panache.withTransaction(() -> credentials
                        .store(account, bytes("first"), Instant.now())
                        .chain(() -> credentials.findForUpdate(account))
                        .call(() -> credentials.store(account, bytes("second"), Instant.now()))
                        .chain(first -> credentials.find(account).map(second -> List.of(first, second)))),
                read -> assertThat(read).containsExactly(bytes("first"), bytes("second")));
        asserter.assertThat(
                () -> Panache.withSession(() -> credentials.findAll(List.of(account, "acc_missing"))),
                grants -> assertThat(grants).containsOnlyKeys(account).containsEntry(account, bytes("second")));
    }

    @Test
    @RunOnVertxContext
    void liveAccountLookupsReuseTheirQueryPlansHoweverOftenTheyRun(UniAsserter asserter) {
        Statistics statistics = sessionFactory.getStatistics();
        statistics.setStatisticsEnabled(true);
        long[] missesAfterFirstRound = new long[1];
        asserter.execute(() -> Panache.withTransaction(() -> credentials
                .store(account, bytes("grant"), Instant.now())
                .chain(() -> readCache.store(account, "boards", "{\"items\":[]}", Instant.now()))));
        asserter.execute(
                () -> lookups().invoke(() -> missesAfterFirstRound[0] = statistics.getQueryPlanCacheMissCount()));
        for (int i = 0; i < 10; i++) {
            asserter.assertThat(this::lookups, json -> assertThat(json).isEqualTo("{\"items\": []}"));
        }
        asserter.execute(
                () -> assertThat(statistics.getQueryPlanCacheMissCount()).isEqualTo(missesAfterFirstRound[0]));
        asserter.execute(() -> statistics.setStatisticsEnabled(false));
    }

    /** Every lookup once; answers the cached read. */
    private Uni<String> lookups() {
        return Panache.withTransaction(() -> credentials
                .find(account)
                .chain(() -> credentials.findForUpdate(account))
                .chain(() -> credentials.findAll(List.of(account)))
                .chain(() -> revocations.pendingFor(account))
                .chain(() -> cachedReads.findAll(List.of(account), "boards", Instant.EPOCH))
                .chain(() -> cachedReads.find(account, "boards", Instant.EPOCH)));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
