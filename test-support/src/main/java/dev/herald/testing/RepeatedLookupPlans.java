package dev.herald.testing;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * How often PostgreSQL planned a repeated lookup anew. A prepared statement is planned for its first five executions,
 * then runs a generic plan if that is no dearer; a statement whose parameters change the estimate (a row-limit
 * parameter, as Panache's {@code firstResult()} adds) is planned at every execution, which costs more than the lookup.
 */
public final class RepeatedLookupPlans {
    private RepeatedLookupPlans() {}

    /**
     * Runs {@code lookup} {@code times} times in one session (cleared before each, so every run reaches the database on
     * the same connection) and answers, for each prepared statement containing {@code statementText} that ran exactly
     * {@code times} more times, how many of those runs were custom plans. Call inside a session (Panache.withSession).
     */
    public static Uni<List<Long>> customPlans(Supplier<Uni<?>> lookup, int times, String statementText) {
        return plans(statementText).chain(before -> {
            Uni<?> runs = Uni.createFrom().nullItem();
            for (int i = 0; i < times; i++) {
                runs = runs.chain(() -> Panache.getSession().invoke(Mutiny.Session::clear))
                        .chain(lookup);
            }
            return runs.chain(() -> plans(statementText)).map(after -> {
                List<Long> custom = new ArrayList<>();
                after.forEach((statement, counts) -> {
                    long[] earlier = before.getOrDefault(statement, new long[2]);
                    if (counts[0] + counts[1] - earlier[0] - earlier[1] == times) {
                        custom.add(counts[1] - earlier[1]);
                    }
                });
                return custom;
            });
        });
    }

    /** Generic and custom plans so far of each prepared statement on the session's connection containing the text. */
    private static Uni<Map<String, long[]>> plans(String statementText) {
        return Panache.getSession()
                .chain(session -> session.createNativeQuery("""
                        select statement, generic_plans, custom_plans from pg_prepared_statements
                        where statement like '%' || ?1 || '%' and statement not like '%pg_prepared_statements%'""", Object[].class)
                        .setParameter(1, statementText)
                        .getResultList())
                .map(rows -> {
                    Map<String, long[]> plans = new HashMap<>();
                    rows.forEach(row -> plans.put(
                            (String) row[0],
                            new long[] {((Number) row[1]).longValue(), ((Number) row[2]).longValue()}));
                    return plans;
                });
    }
}
