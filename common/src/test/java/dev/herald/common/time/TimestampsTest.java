package dev.herald.common.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimestampsTest {
    @Test
    void rfc3339TimestampsWithAnOffsetAreRead() {
        assertThat(Timestamps.parseRfc3339("2026-12-20T10:00:00Z")).contains(Instant.parse("2026-12-20T10:00:00Z"));
        assertThat(Timestamps.parseRfc3339("2026-12-20T10:00:00+05:30"))
                .contains(Instant.parse("2026-12-20T04:30:00Z"));
        assertThat(Timestamps.parseRfc3339("2026-12-20t10:00:00.5z"))
                .contains(Instant.parse("2026-12-20T10:00:00.500Z"));
        // Microseconds are kept, as PostgreSQL keeps them; finer digits are dropped.
        assertThat(Timestamps.parseRfc3339("2026-12-20T10:00:00.123456789Z"))
                .contains(Instant.parse("2026-12-20T10:00:00.123456Z"));
    }

    @Test
    void isoFormsThatAreNotRfc3339AreRefused() {
        for (String text : new String[] {
            "2026-12-20T10:00Z",
            "2026-12-20T10:00:00+05:30:45",
            "2026-12-20T10:00:00",
            "2026-12-20 10:00:00Z",
            "2026-12-20T10:00:00+0530",
            "20261220T100000Z",
            "2026-12-20T10:00:00.Z",
            "+2026-12-20T10:00:00Z",
            "2027-02-29T00:00:00Z",
            ""
        }) {
            assertThat(Timestamps.parseRfc3339(text)).as(text).isEmpty();
        }
    }
}
