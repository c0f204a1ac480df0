package dev.herald.delivery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The Pinterest publisher ({@code herald.publishers.pinterest.*}). */
@ConfigMapping(prefix = "herald.publishers.pinterest")
public interface PinterestConfig {

    @WithDefault("https://api.pinterest.com")
    String apiUrl();

    /** Where trial apps' calls go (Pinterest's sandbox, https://developers.pinterest.com/docs/dev-tools/sandbox/). */
    @WithDefault("https://api-sandbox.pinterest.com")
    String sandboxApiUrl();

    /**
     * Whether Herald's Pinterest app has trial access only: pins are then created on the sandbox host, like
     * accounts-service's board reads ({@code herald.accounts.pinterest-trial-access}; set both alike).
     */
    @WithDefault("false")
    boolean trialAccess();

    /** How many of the board's latest pins a repeated attempt looks through for an unknown call's pin. */
    @WithDefault("25")
    int reconcileWindow();

    /**
     * How long after the upload, and then between checks, a video's media status is asked for ({@code succeeded} before
     * its pin is made).
     */
    @WithDefault("PT20S")
    Duration videoCheckInterval();

    /** A video Pinterest is still processing this long after its upload is given up and uploaded anew. */
    @WithDefault("PT30M")
    Duration videoProcessingDeadline();

    /**
     * The second of the video its pin's cover is taken from ({@code cover_image_key_frame_time}; Pinterest requires it
     * or a cover image URL, and the post has none): 1 s, past a fade-in, within Pinterest's 4 s minimum length.
     */
    @WithDefault("1")
    int videoCoverKeyFrameTime();

    @WithDefault("PT5S")
    Duration connectTimeout();

    /** Less than the worker's 30 s publish timeout, so a slow call ends here. */
    @WithDefault("PT20S")
    Duration readTimeout();
}
