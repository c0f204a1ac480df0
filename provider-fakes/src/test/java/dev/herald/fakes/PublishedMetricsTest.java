package dev.herald.fakes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.fakes.service.PublishedMetrics;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link PublishedMetrics}'s documented formula, by hand: SHA-256 of each id starts c44c8694 (k = 5) and 5f6b0b4e (k =
 * 7).
 */
class PublishedMetricsTest {
    private static final Instant PUBLISHED = Instant.parse("2026-11-25T10:00:00Z");

    @Test
    void anItemsNumbersGrowWithEveryWholeMinuteSincePublication() {
        assertThat(PublishedMetrics.item("108765432109876_1234567890123456", PUBLISHED, PUBLISHED))
                .isEqualTo(new PublishedMetrics.Item(900, 675, 75, 15, 10, 20));
        assertThat(PublishedMetrics.item("108765432109876_1234567890123456", PUBLISHED, PUBLISHED.plusSeconds(59)))
                .isEqualTo(new PublishedMetrics.Item(900, 675, 75, 15, 10, 20));
        assertThat(PublishedMetrics.item(
                        "108765432109876_1234567890123456", PUBLISHED, PUBLISHED.plusSeconds(61 * 60 + 30)))
                .isEqualTo(new PublishedMetrics.Item(55_800, 41_850, 4_650, 930, 620, 1_240));
        assertThat(PublishedMetrics.item("dQw4w9WgXcQ", PUBLISHED, PUBLISHED.plusSeconds(179)))
                .isEqualTo(new PublishedMetrics.Item(3_780, 2_835, 315, 63, 42, 84));
    }

    @Test
    void anAccountsNumbersSumItsItems() {
        assertThat(PublishedMetrics.account(List.of(
                        PublishedMetrics.item(
                                "108765432109876_1234567890123456", PUBLISHED, PUBLISHED.plusSeconds(61 * 60 + 30)),
                        PublishedMetrics.item("dQw4w9WgXcQ", PUBLISHED, PUBLISHED.plusSeconds(179)))))
                .isEqualTo(new PublishedMetrics.Account(6_958, 102, 2, 59_580, 5_865));
        assertThat(PublishedMetrics.account(List.of())).isEqualTo(new PublishedMetrics.Account(1_000, 100, 0, 0, 900));
    }
}
