package dev.herald.common.persistence;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.spi.PgDriver;
import io.vertx.sqlclient.Pool;
import jakarta.inject.Singleton;

/**
 * Builds each service's PostgreSQL pool as Quarkus does, but with a client that keeps prepared statements of up to
 * {@link #SQL_LIMIT} characters instead of the Vert.x default of 2,048. Past that limit the client sends a statement
 * unnamed, so PostgreSQL parses, analyses and plans it at every execution: the posts pipeline's acceptance statement
 * once cost 0.4 ms of PostgreSQL's time per post that way. Herald's SQL is fixed text (the {@code *Statements}
 * classes and Hibernate's generated statements), so the limit guards no unbounded set of texts here. Quarkus has no
 * setting for it (only {@code cache-prepared-statements}), hence this bean, which Quarkus calls for every pool. It
 * builds the pool from the configured options, not from Quarkus's per-connection supplier, which only matters with a
 * credentials provider: Herald configures none.
 */
@Singleton
public class StatementCachingPoolCreator implements PgPoolCreator {
    /** The longest statement the client keeps prepared; {@link NamedStatement#of} refuses a longer one. */
    public static final int SQL_LIMIT = 16_384;

    @Override
    public Pool create(Input input) {
        input.pgConnectOptionsList().forEach(options -> options.setPreparedStatementCacheSqlLimit(SQL_LIMIT));
        return PgDriver.INSTANCE.createPool(input.vertx(), input.pgConnectOptionsList(), input.poolOptions());
    }
}
