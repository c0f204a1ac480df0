package dev.herald.posts.service;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HttpsUrlsTest {

    @Test
    void onlyAbsoluteHttpsUrlsWithAHostAreAccepted() {
        assertThat(HttpsUrls.problem("https://cdn.example.com/a.jpg")).isEmpty();
        assertThat(HttpsUrls.problem("http://cdn.example.com/a.jpg")).contains("must be an absolute https URL");
        assertThat(HttpsUrls.problem("/a.jpg")).contains("must be an absolute https URL");
        assertThat(HttpsUrls.problem("https:///a.jpg")).contains("must be an absolute https URL");
        assertThat(HttpsUrls.problem("https://cdn.example.com/" + "a".repeat(2048)))
                .contains("must be at most 2048 characters");
    }

    @Test
    void mediaUrlsAlsoHaveTheFormDeliveryFetchesFrom() {
        assertThat(HttpsUrls.mediaProblem("https://cdn.example.com/a.jpg", false))
                .isEmpty();
        assertThat(HttpsUrls.mediaProblem("https://user:pw@cdn.example.com/a.jpg", false))
                .contains("must not contain user information (user:password@)");
        assertThat(HttpsUrls.mediaProblem("https://cdn.example.com/a.jpg#x", false))
                .contains("must not contain a fragment (#...)");
        assertThat(HttpsUrls.mediaProblem("https://cdn.example.com:70000/a.jpg", false))
                .contains("must have a port from 1 to 65535");
        assertThat(HttpsUrls.mediaProblem("http://cdn.example.com/a.jpg", false))
                .contains("must be an absolute https URL");
        assertThat(HttpsUrls.mediaProblem("http://127.0.0.1:8190/_fakes/media/clip.mp4", true))
                .isEmpty();
        // Links handed to a platform (not fetched by Herald) keep the plain rule: a fragment is a fine part of a link.
        assertThat(HttpsUrls.problem("https://shop.example.com/item#reviews")).isEmpty();
    }

    @Test
    void localRunsAlsoAcceptPlainHttpMediaButNoOtherScheme() {
        assertThat(HttpsUrls.problem("http://127.0.0.1:8190/_fakes/media/clip.mp4", true))
                .isEmpty();
        assertThat(HttpsUrls.problem("https://cdn.example.com/a.jpg", true)).isEmpty();
        assertThat(HttpsUrls.problem("ftp://127.0.0.1/a.jpg", true)).contains("must be an absolute http or https URL");
        assertThat(HttpsUrls.problem("file:///etc/passwd", true)).contains("must be an absolute http or https URL");
    }
}
