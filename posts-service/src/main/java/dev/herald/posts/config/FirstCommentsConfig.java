package dev.herald.posts.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Posting first comments on live published targets ({@code herald.first-comments.*}, {@code FirstCommentJob}). */
@ConfigMapping(prefix = "herald.first-comments")
public interface FirstCommentsConfig {

    /** How often pending first comments are looked for (the job also runs right after a live target publishes). */
    @WithDefault("1s")
    Duration interval();

    /**
     * How long after its target published a first comment may still be tried; then it is {@code failed}, and the
     * post's final event, which waits for it, goes out.
     */
    @WithDefault("10m")
    Duration deadline();

    /** The wait before the second try; each later wait doubles, up to {@link #maxRetryWait()}. */
    @WithDefault("5s")
    Duration firstRetryWait();

    @WithDefault("2m")
    Duration maxRetryWait();

    /**
     * How long a claimed first comment is left to its replica (longer than the calls it makes: account access, usage,
     * the platform): after it the comment is due again.
     */
    @WithDefault("2m")
    Duration claimLease();

    /** First comments claimed per pass. */
    @WithDefault("20")
    int batch();
}
