package dev.herald.delivery.provider.youtube;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class YouTubeVideoResourceTest {

    @Test
    void titleAndDescriptionFollowYouTubesLimits() {
        assertThat(YouTubeVideoResource.title("My <b> title", "text", "https://cdn.example.com/a.mp4"))
                .isEqualTo("My \u2039b\u203A title");
        assertThat(YouTubeVideoResource.title(null, "\n\n  First line  \nsecond", "https://cdn.example.com/a.mp4"))
                .isEqualTo("First line");
        assertThat(YouTubeVideoResource.title(null, "x".repeat(150), "https://cdn.example.com/a.mp4"))
                .hasSize(100);
        assertThat(YouTubeVideoResource.title(null, "", "https://cdn.example.com/clips/Summer%20trip.mp4"))
                .isEqualTo("Summer trip");
        String description = YouTubeVideoResource.cutToBytes("é".repeat(3000), 5000);
        assertThat(description.getBytes(StandardCharsets.UTF_8)).hasSize(5000);
    }
}
