package dev.herald.posts.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "herald.media")
public interface MediaConfig {
    /**
     * Local runs only ({@code ./herald up} sets it, with delivery-worker's setting of the same name): a post's
     * {@code media.url} may be plain http and point at loopback or private addresses, so media served on the developer's
     * own machine (the provider fakes' sample files) can be posted and uploaded. Off in every real deployment, where
     * such URLs are refused at acceptance (OWASP API7).
     */
    @WithDefault("false")
    boolean allowPrivateUrls();

    /**
     * How long a dry run's probe of one media URL may take in all (every redirect and ranged read): a host slower than
     * this is reported unreachable rather than holding the answer.
     */
    @WithDefault("5s")
    Duration probeTimeout();
}
