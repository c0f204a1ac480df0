package dev.herald.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CappedBodyTest {
    @Test
    void shortBodiesAreKeptWhole() {
        assertThat(CappedBody.text("{\"ok\":true}".getBytes(StandardCharsets.UTF_8), 1024))
                .isEqualTo("{\"ok\":true}");
    }

    @Test
    void longBodiesAreCutOnACharacterBoundaryWithinTheLimit() {
        byte[] bytes = ("a" + "\u20ac".repeat(1000)).getBytes(StandardCharsets.UTF_8);
        String kept = CappedBody.text(bytes, 1024);
        assertThat(kept.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1024);
        assertThat(kept).isEqualTo("a" + "\u20ac".repeat(341));
    }

    @Test
    void nulCharactersAndInvalidBytesNeverOverflowTheLimit() {
        byte[] invalid = new byte[1025];
        java.util.Arrays.fill(invalid, (byte) 0xff);
        assertThat(CappedBody.text(invalid, 1024).getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(1024);
        assertThat(CappedBody.text("a\u0000b".getBytes(StandardCharsets.UTF_8), 1024))
                .isEqualTo("ab");
    }
}
