package dev.herald.common.persistence;

/**
 * A statement whose conditions are optional (a list's filters and its page cursor), as one {@link NamedStatement} per
 * combination of them, each parsed once. Each combination is a prepared statement of its own, planned for the
 * conditions it has, as a statement built for every call would be, without building one for every call.
 */
public final class FilteredStatement {
    private final NamedStatement[] combinations;
    private final int conditions;

    private FilteredStatement(NamedStatement[] combinations, int conditions) {
        this.combinations = combinations;
        this.conditions = conditions;
    }

    /**
     * {@code head}, the conditions applied (each as written, in this order: {@code " and status = :status"}), then
     * {@code tail}.
     */
    public static FilteredStatement of(String head, String tail, String... conditions) {
        if (conditions.length > 8) {
            throw new IllegalArgumentException("more than 8 optional conditions: 2^n statements");
        }
        NamedStatement[] combinations = new NamedStatement[1 << conditions.length];
        for (int applied = 0; applied < combinations.length; applied++) {
            StringBuilder sql = new StringBuilder(head);
            for (int i = 0; i < conditions.length; i++) {
                if ((applied & (1 << i)) != 0) {
                    sql.append(conditions[i]);
                }
            }
            combinations[applied] = NamedStatement.of(sql.append(tail).toString());
        }
        return new FilteredStatement(combinations, conditions.length);
    }

    /** The statement with the conditions flagged applied (one flag per condition, in order). */
    public NamedStatement with(boolean... applied) {
        if (applied.length != conditions) {
            throw new IllegalArgumentException(conditions + " conditions, " + applied.length + " flags");
        }
        int combination = 0;
        for (int i = 0; i < applied.length; i++) {
            if (applied[i]) {
                combination |= 1 << i;
            }
        }
        return combinations[combination];
    }
}
