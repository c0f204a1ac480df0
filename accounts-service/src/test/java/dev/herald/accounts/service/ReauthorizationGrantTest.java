package dev.herald.accounts.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.accounts.provider.ProviderGrant;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link AccountConnections#keepingRefreshToken}: what a re-authorization stores. */
class ReauthorizationGrantTest {
    private static final Instant NOW = Instant.parse("2026-11-28T00:00:00Z");

    private static ProviderGrant grant(String access, String refresh, Instant refreshEnd) {
        return new ProviderGrant(access, refresh, NOW.plus(Duration.ofHours(1)), refreshEnd, Set.of("scope"), "sub");
    }

    @Test
    void aNewGrantWithoutARefreshTokenKeepsTheStoredOneWithItsEnd() {
        Instant refreshEnd = NOW.plus(Duration.ofDays(300));
        ProviderGrant kept = AccountConnections.keepingRefreshToken(
                grant("new-access", null, null), grant("old-access", "old-refresh", refreshEnd), NOW);
        assertThat(kept.accessToken()).isEqualTo("new-access");
        assertThat(kept.refreshToken()).isEqualTo("old-refresh");
        assertThat(kept.refreshExpiresAt()).isEqualTo(refreshEnd);
        assertThat(kept.expiresAt()).isEqualTo(NOW.plus(Duration.ofHours(1)));
    }

    @Test
    void aNewRefreshTokenReplacesTheStoredOne() {
        ProviderGrant fresh = grant("new-access", "new-refresh", null);
        assertThat(AccountConnections.keepingRefreshToken(fresh, grant("old", "old-refresh", null), NOW))
                .isEqualTo(fresh);
    }

    @Test
    void anExpiredOrAbsentStoredRefreshTokenIsNotKept() {
        ProviderGrant fresh = grant("new-access", null, null);
        assertThat(AccountConnections.keepingRefreshToken(fresh, grant("old", "old-refresh", NOW), NOW))
                .isEqualTo(fresh);
        assertThat(AccountConnections.keepingRefreshToken(fresh, grant("old", null, null), NOW))
                .isEqualTo(fresh);
        assertThat(AccountConnections.keepingRefreshToken(fresh, null, NOW)).isEqualTo(fresh);
        assertThat(AccountConnections.keepingRefreshToken(null, grant("old", "old-refresh", null), NOW))
                .isNull();
    }
}
