package dev.herald.gateway.config;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code POST /posts/batch}, the one API route whose body may be larger than 1 MiB. */
@ConfigMapping(prefix = "herald.posts-batch")
public interface PostBatchConfig {
    /**
     * The most the gateway reads of a batch: 100 posts of up to 1 MiB each would be 100 MiB, but a post's text is at
     * most 5,000 characters and its media are URLs, so real ones are a few KiB and 8 MiB leaves room for 100 large ones.
     */
    @WithDefault("8M")
    MemorySize maxBodySize();
}
