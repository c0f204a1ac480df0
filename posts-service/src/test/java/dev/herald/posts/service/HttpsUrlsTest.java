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
        assertThat(HttpsUrls.problem("https://cdn.example.com/" + "a".repeat(2048))).contains("must be at most 2048 characters");
    }

    @Test
    void localRunsAlsoAcceptPlainHttpMediaButNoOtherScheme() {
        assertThat(HttpsUrls.problem("http://127.0.0.1:8190/_fakes/media/clip.mp4", true)).isEmpty();
        assertThat(HttpsUrls.problem("https://cdn.example.com/a.jpg", true)).isEmpty();
        assertThat(HttpsUrls.problem("ftp://127.0.0.1/a.jpg", true)).contains("must be an absolute http or https URL");
        assertThat(HttpsUrls.problem("file:///etc/passwd", true)).contains("must be an absolute http or https URL");
    }
}
