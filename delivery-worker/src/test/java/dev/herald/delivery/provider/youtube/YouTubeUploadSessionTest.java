package dev.herald.delivery.provider.youtube;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class YouTubeUploadSessionTest {

    @Test
    void aSourceServedWithAnotherTypeIsUploadedAsBytesYouTubeAccepts() {
        assertThat(YouTubeUploadSession.uploadType("video/mp4")).isEqualTo("video/mp4");
        assertThat(YouTubeUploadSession.uploadType("Video/QuickTime; charset=binary"))
                .isEqualTo("video/quicktime");
        // YouTube refuses text/plain (badContent); octet-stream is the type it takes for a video of unnamed format.
        assertThat(YouTubeUploadSession.uploadType("text/plain")).isEqualTo("application/octet-stream");
        assertThat(YouTubeUploadSession.uploadType(null)).isEqualTo("application/octet-stream");
    }

    @Test
    void aSessionsRangeNamesTheFirstByteYouTubeLacks() {
        assertThat(YouTubeUploadSession.confirmed("bytes=0-524287")).isEqualTo(524288);
        assertThat(YouTubeUploadSession.confirmed(null)).isZero();
    }
}
