package dev.herald.accounts.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AccentContrastTest {
    @Test
    void blackAndWhiteAreTheExtremes() {
        assertThat(AccentContrast.againstWhite("#000000")).isCloseTo(21.0, within(0.001));
        assertThat(AccentContrast.againstWhite("#FFFFFF")).isCloseTo(1.0, within(0.001));
    }

    @Test
    void knownColoursMeasureAsWcagToolsDo() {
        // Herald's own blue, and the grey at the edge of AA (#767676 passes at 4.54, #777777 fails at 4.48).
        assertThat(AccentContrast.againstWhite("#0b57d0")).isCloseTo(6.39, within(0.01));
        assertThat(AccentContrast.againstWhite("#767676")).isCloseTo(4.54, within(0.01));
        assertThat(AccentContrast.againstWhite("#777777")).isCloseTo(4.48, within(0.01));
        assertThat(AccentContrast.againstWhite("#ffcc00")).isCloseTo(1.51, within(0.01));
    }

    @Test
    void theShownRatioIsRoundedDownSoAFailingOneNeverReadsAsEnough() {
        assertThat(AccentContrast.shown(4.4999)).isEqualTo("4.49");
        assertThat(AccentContrast.shown(6.386)).isEqualTo("6.38");
    }
}
