package dev.herald.testing;

/**
 * A check that reads the database over JDBC (and so throws checked exceptions), for test steps that take a
 * {@link Runnable}, such as {@code UniAsserter.execute}: {@code asserter.execute(DatabaseCheck.of(() -> ...))}.
 */
@FunctionalInterface
public interface DatabaseCheck {
    void run() throws Exception;

    /** The check as a Runnable; a checked exception fails the test as an AssertionError. */
    static Runnable of(DatabaseCheck check) {
        return () -> {
            try {
                check.run();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
    }
}
