package dev.herald.common.persistence;

/**
 * Recognizes PostgreSQL's unique_violation (SQLSTATE 23505) however it arrives: straight from the reactive
 * client, or wrapped by Hibernate Reactive. Services use it to turn a lost insert race into the answer the
 * winner already gave.
 */
public final class UniqueViolation {
    public static final String SQL_STATE = "23505";

    private UniqueViolation() {}

    public static boolean causedBy(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof io.vertx.pgclient.PgException pg && SQL_STATE.equals(pg.getSqlState())) {
                return true;
            }
            if (cause instanceof org.hibernate.exception.ConstraintViolationException violation
                    && SQL_STATE.equals(violation.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
