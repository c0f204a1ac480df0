package dev.herald.posts.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Creating the copies of recurring posts ({@code herald.series.*}, {@code SeriesCopyJob}). */
@ConfigMapping(prefix = "herald.series")
public interface SeriesConfig {

    /** How often series whose next copy is due are looked for. */
    @WithDefault("1s")
    Duration interval();

    /**
     * How long a claimed series is left to its replica (longer than a copy's acceptance: accounts, usage, profiles);
     * after it the series is due again and the copy's idempotency key makes the retry a replay.
     */
    @WithDefault("2m")
    Duration claimLease();

    /** Series claimed per pass. */
    @WithDefault("20")
    int batch();
}
