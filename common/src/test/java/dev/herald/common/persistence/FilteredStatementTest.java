package dev.herald.common.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FilteredStatementTest {
    private static final FilteredStatement LIST = FilteredStatement.of(
            "select id from logs where workspace_id = :workspace_id",
            " order by id desc limit :limit",
            " and status = :status",
            " and id < :after_id");

    @Test
    void eachCombinationIsTheHeadItsConditionsInOrderAndTheTail() {
        assertThat(LIST.with(false, false).sql())
                .isEqualTo("select id from logs where workspace_id = $1 order by id desc limit $2");
        assertThat(LIST.with(true, false).sql())
                .isEqualTo("select id from logs where workspace_id = $1 and status = $2 order by id desc limit $3");
        assertThat(LIST.with(false, true).sql())
                .isEqualTo("select id from logs where workspace_id = $1 and id < $2 order by id desc limit $3");
        assertThat(LIST.with(true, true).names()).containsExactly("workspace_id", "status", "after_id", "limit");
    }

    @Test
    void aCombinationIsParsedOnce() {
        assertThat(LIST.with(true, false)).isSameAs(LIST.with(true, false));
    }

    @Test
    void oneFlagPerConditionOrItFails() {
        assertThatThrownBy(() -> LIST.with(true)).isInstanceOf(IllegalArgumentException.class);
    }
}
