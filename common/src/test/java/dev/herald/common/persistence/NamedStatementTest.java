package dev.herald.common.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class NamedStatementTest {
    @Test
    void namesBecomePositionsInOrderOfFirstUse() {
        NamedStatement statement = NamedStatement.of("update posts set status = :status where id = :id");

        assertThat(statement.sql()).isEqualTo("update posts set status = $1 where id = $2");
        assertThat(statement.names()).containsExactly("status", "id");
    }

    @Test
    void aNameUsedTwiceIsOnePositionBoundOnce() {
        NamedStatement statement = NamedStatement.of(
                "select :post from posts where id = :post and updated_at = :at and :post::text is not null");

        assertThat(statement.sql())
                .isEqualTo("select $1 from posts where id = $1 and updated_at = $2 and $1::text is not null");
        Tuple tuple =
                statement.parameters().set("post", "pst_1").set("at", null).tuple();
        assertThat(tuple.size()).isEqualTo(2);
        assertThat(tuple.getValue(0)).isEqualTo("pst_1");
        assertThat(tuple.getValue(1)).isNull();
    }

    @Test
    void castsLiteralsQuotedNamesAndCommentsAreLeftAlone() {
        String untouched =
                "select payload::jsonb, x::text[], ':not' || 'it''s :no', \"col:x\" -- :nor\n" + "/* :none */ from t";

        NamedStatement statement = NamedStatement.of(untouched + " where a = :a::text");

        assertThat(statement.sql()).isEqualTo(untouched + " where a = $1::text");
        assertThat(statement.names()).containsExactly("a");
    }

    @Test
    void valuesAreBoundByNameWhateverTheOrderTheyAreSetIn() {
        NamedStatement statement = NamedStatement.of("insert into t (a, b, c) values (:a, :b, :c)");

        Tuple tuple = statement
                .parameters()
                .set("c", 3)
                .set("a", "one")
                .set("b", new String[] {"two"})
                .tuple();

        assertThat(tuple.getValue(0)).isEqualTo("one");
        assertThat(tuple.getValue(1)).isEqualTo(new String[] {"two"});
        assertThat(tuple.getValue(2)).isEqualTo(3);
    }

    @Test
    void instantsAreBoundAsUtcTimestamps() {
        Instant at = Instant.parse("2026-01-02T03:04:05Z");
        NamedStatement statement = NamedStatement.of("select :at, :all");

        Tuple tuple = statement
                .parameters()
                .set("at", at)
                .set("all", new Instant[] {at, null})
                .tuple();

        OffsetDateTime utc = OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
        assertThat(tuple.getValue(0)).isEqualTo(utc);
        assertThat((OffsetDateTime[]) tuple.getValue(1)).containsExactly(utc, null);
    }

    @Test
    void aNameNotSetFailsInsteadOfBindingNull() {
        NamedStatement statement = NamedStatement.of("select :a, :b");

        assertThatThrownBy(() -> statement.parameters().set("a", 1).tuple())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(":b");
    }

    @Test
    void aNameTheStatementDoesNotHaveFails() {
        NamedStatement statement = NamedStatement.of("select :a");

        assertThatThrownBy(() -> statement.parameters().set("b", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(":b");
    }

    @Test
    void positionalPlaceholdersAndUnterminatedLiteralsAreRefused() {
        assertThatThrownBy(() -> NamedStatement.of("select :a, $2")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NamedStatement.of("select ':a")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aStatementTheClientWouldNotKeepPreparedIsRefused() {
        String padding = "x".repeat(StatementCachingPoolCreator.SQL_LIMIT);
        assertThat(NamedStatement.of("select 1 /*" + padding.substring(13) + "*/")
                        .sql())
                .hasSize(StatementCachingPoolCreator.SQL_LIMIT);
        assertThatThrownBy(() -> NamedStatement.of("select 1 /*" + padding + "*/"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over the 16384 the client keeps prepared");
    }
}
