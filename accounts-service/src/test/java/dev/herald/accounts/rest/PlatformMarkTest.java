package dev.herald.accounts.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.wire.Platform;
import org.junit.jupiter.api.Test;

class PlatformMarkTest {
    @Test
    void everyPlatformsMarkStandsOutAgainstTheWhiteCardByAtLeastThreeToOne() {
        for (Platform platform : Platform.values()) {
            PlatformMark mark = PlatformMark.of(platform);
            assertThat(mark.color()).matches("#[0-9A-Fa-f]{6}");
            assertThat(contrastWithWhite(mark.color()))
                    .as("%s's %s against white (WCAG 1.4.11)", platform, mark.color())
                    .isGreaterThanOrEqualTo(3.0);
            assertThat(mark.path()).startsWith("M");
        }
    }

    @Test
    void theContrastRatioIsWcags() {
        assertThat(contrastWithWhite("#000000")).isEqualTo(21.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(contrastWithWhite("#FF0000")).isEqualTo(4.0, org.assertj.core.data.Offset.offset(0.01));
    }

    /** WCAG 2.2's contrast ratio of {@code #rrggbb} against white: (1.05) / (L + 0.05). */
    static double contrastWithWhite(String color) {
        double luminance = 0.2126 * channel(color, 1) + 0.7152 * channel(color, 3) + 0.0722 * channel(color, 5);
        return 1.05 / (luminance + 0.05);
    }

    private static double channel(String color, int at) {
        double value = Integer.parseInt(color.substring(at, at + 2), 16) / 255.0;
        return value <= 0.04045 ? value / 12.92 : Math.pow((value + 0.055) / 1.055, 2.4);
    }
}
