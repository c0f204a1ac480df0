package dev.herald.local;

import java.nio.file.Path;

/** A component of the suite could not be started; everything started before it has been stopped again. */
public class LocalSuiteStartException extends RuntimeException {
    private final String component;
    private final transient Path log;

    public LocalSuiteStartException(String component, String problem, Path log, Throwable cause) {
        super(component + " " + problem + (log != null ? "; see " + log : ""), cause);
        this.component = component;
        this.log = log;
    }

    /** {@code postgres}, {@code kafka}, or a service module name. */
    public String component() {
        return component;
    }

    /** The log to read, or null when the problem showed before the component ever ran. */
    public Path log() {
        return log;
    }
}
