package dev.herald.posts.repository;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.pgclient.PgConnectOptions;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The acceptance statement runs once per post: the Vert.x client must keep it prepared (its cache takes statements of at
 * most 2,048 characters), or PostgreSQL parses, analyses and plans it at every execution.
 */
class AcceptanceStatementCacheTest {
    private final Predicate<String> cached = new PgConnectOptions().getPreparedStatementCacheSqlFilter();

    @Test
    void theCommitOfAPostIsKeptPrepared() {
        assertThat(cached.test(AcceptanceStatements.COMMIT.sql()))
                .as("%d characters", AcceptanceStatements.COMMIT.sql().length())
                .isTrue();
    }

    @Test
    void onlyTheFirstPostOfASeriesTakesTheLongerStatement() {
        // Rare (one post per series), so it may be planned at each execution: it is the single statement every post
        // took before, which the cache refused.
        assertThat(AcceptanceStatements.COMMIT_STARTING_SERIES.sql()).contains("insert into post_series");
        assertThat(cached.test(AcceptanceStatements.COMMIT_STARTING_SERIES.sql()))
                .isFalse();
        assertThat(AcceptanceStatements.COMMIT.sql()).doesNotContain("post_series");
    }
}
