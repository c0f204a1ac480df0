package dev.herald.fakes.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A failure waiting for the next {@code remaining} requests of its platform that match {@code method} (any when
 * null) and {@code path} (a regex over the path below the platform prefix; any when null).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public final class ArmedFailure {
    private final String id;
    private final String platform;
    private final FailureKind kind;
    private final String method;
    private final String path;
    private final Pattern pathPattern;
    private final AtomicInteger remaining;
    private final Integer status;
    private final Integer retryAfterSeconds;
    private final Long delayMs;

    public ArmedFailure(
            String id,
            String platform,
            FailureKind kind,
            String method,
            String path,
            int times,
            Integer status,
            Integer retryAfterSeconds,
            Long delayMs) {
        this.id = id;
        this.platform = platform;
        this.kind = kind;
        this.method = method;
        this.path = path;
        this.pathPattern = path == null ? null : Pattern.compile(path);
        this.remaining = new AtomicInteger(times);
        this.status = status;
        this.retryAfterSeconds = retryAfterSeconds;
        this.delayMs = delayMs;
    }

    public String getId() {
        return id;
    }

    public String getPlatform() {
        return platform;
    }

    public FailureKind getKind() {
        return kind;
    }

    public String getMethod() {
        return method;
    }

    public String getPath() {
        return path;
    }

    public int getRemaining() {
        return remaining.get();
    }

    public Integer getStatus() {
        return status;
    }

    public Integer getRetryAfterSeconds() {
        return retryAfterSeconds;
    }

    public Long getDelayMs() {
        return delayMs;
    }

    @JsonIgnore
    public boolean matches(FakeRequest request) {
        return platform.equals(request.platform())
                && (method == null || method.equalsIgnoreCase(request.method()))
                && (pathPattern == null || pathPattern.matcher(request.path()).matches());
    }

    /** Takes one use; false once used up (two requests racing for the last use: one wins). */
    @JsonIgnore
    public boolean take() {
        return remaining.getAndUpdate(left -> Math.max(0, left - 1)) > 0;
    }

    @JsonIgnore
    public boolean usedUp() {
        return remaining.get() <= 0;
    }

    /** The status the failure answers with: the armed one, else the kind's usual one. */
    public int statusOr(int usual) {
        return status != null ? status : usual;
    }
}
