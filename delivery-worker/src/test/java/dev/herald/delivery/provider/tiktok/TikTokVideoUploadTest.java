package dev.herald.delivery.provider.tiktok;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TikTokVideoUploadTest {
    private static final long CHUNK = 5L * 1024 * 1024;
    private static final long SIZE = 3 * CHUNK + 1_234_567;

    @Test
    void chunksFollowTikToksMediaTransferGuide() {
        long mib = 1024L * 1024;
        assertThat(TikTokVideoUpload.chunks(SIZE, CHUNK)).isEqualTo(new TikTokVideoUpload.ChunkPlan(CHUNK, 3));
        // Below 5 MiB, and up to one chunk, the file goes whole.
        assertThat(TikTokVideoUpload.chunks(4_000_000, 64 * mib))
                .isEqualTo(new TikTokVideoUpload.ChunkPlan(4_000_000, 1));
        assertThat(TikTokVideoUpload.chunks(64 * mib, 64 * mib))
                .isEqualTo(new TikTokVideoUpload.ChunkPlan(64 * mib, 1));
        // Over 64 MiB, two chunks at least; the last takes the trailing bytes.
        assertThat(TikTokVideoUpload.chunks(64 * mib + 1, 64 * mib))
                .isEqualTo(new TikTokVideoUpload.ChunkPlan(32 * mib, 2));
        assertThat(TikTokVideoUpload.chunks(4096 * mib, 64 * mib))
                .isEqualTo(new TikTokVideoUpload.ChunkPlan(64 * mib, 64));
        assertThat(TikTokVideoUpload.chunks(200 * mib + 7, 64 * mib))
                .isEqualTo(new TikTokVideoUpload.ChunkPlan(64 * mib, 3));
        // A configured size outside 5-64 MiB is brought within; never more than 1000 chunks.
        assertThat(TikTokVideoUpload.chunks(12 * mib, mib)).isEqualTo(new TikTokVideoUpload.ChunkPlan(5 * mib, 2));
        assertThat(TikTokVideoUpload.chunks(10_000 * mib, 5 * mib).count()).isLessThanOrEqualTo(1000);
        assertThat(TikTokVideoUpload.videoType("application/octet-stream")).isEqualTo("video/mp4");
        assertThat(TikTokVideoUpload.videoType("video/QuickTime; charset=binary"))
                .isEqualTo("video/quicktime");
    }
}
