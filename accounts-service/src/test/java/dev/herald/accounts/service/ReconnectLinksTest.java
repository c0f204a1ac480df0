package dev.herald.accounts.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.herald.accounts.config.ConnectConfig;
import dev.herald.accounts.model.AccountEntity;
import dev.herald.common.auth.Mode;
import dev.herald.common.paging.CursorConfig;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReconnectLinksTest {
    private static final Instant NOW = Instant.parse("2026-11-28T00:00:00Z");

    private final ConnectBrowserBinding signatures = new ConnectBrowserBinding(config(), cursors());
    private final ReconnectLinks links = new ReconnectLinks(signatures, config());

    private static ConnectConfig config() {
        return new ConnectConfig() {
            @Override
            public URI publicUrl() {
                return URI.create("https://connect.example.com/");
            }

            @Override
            public Optional<String> secret() {
                return Optional.of("a test secret of more than sixteen bytes");
            }

            @Override
            public Duration authorizationTimeout() {
                return Duration.ofMinutes(15);
            }

            @Override
            public int sessionsPerHour() {
                return 100;
            }
        };
    }

    private static CursorConfig cursors() {
        return () -> Optional.of("unused cursor secret, long enough");
    }

    private static AccountEntity account(String mode) {
        AccountEntity account = new AccountEntity();
        account.id = "acc_0123456789abcdef01234567";
        account.workspaceId = "wks_0123456789abcdef01234567";
        account.mode = mode;
        return account;
    }

    private static String token(String url) {
        return url.substring(url.lastIndexOf('/') + 1);
    }

    private static ConnectRefusal.Reason refusalOf(Runnable opening) {
        return catchThrowableOfType(ConnectRefusal.class, opening::run).reason();
    }

    @Test
    void aLinkOpensToItsAccountTenantAndModeUntilSevenDaysPass() {
        ReconnectLinks.Link issued = links.issue(account("live"), NOW);
        assertThat(issued.url()).startsWith("https://connect.example.com/connect/reconnect/");
        assertThat(issued.expiresAt()).isEqualTo(NOW.plus(Duration.ofDays(7)));

        ReconnectLinks.Link opened =
                links.open(token(issued.url()), NOW.plus(Duration.ofDays(7)).minusSeconds(1));
        assertThat(opened.workspaceId()).isEqualTo("wks_0123456789abcdef01234567");
        assertThat(opened.mode()).isEqualTo(Mode.LIVE);
        assertThat(opened.accountId()).isEqualTo("acc_0123456789abcdef01234567");
        assertThat(opened.expiresAt()).isEqualTo(issued.expiresAt());
    }

    @Test
    void anExpiredLinkIsRefusedAsExpiredNotAsUnknown() {
        String token = token(links.issue(account("test"), NOW).url());
        assertThat(refusalOf(() -> links.open(token, NOW.plus(Duration.ofDays(7)))))
                .isEqualTo(ConnectRefusal.Reason.EXPIRED);
    }

    @Test
    void aTamperedTokenIsUnknown() {
        String token = token(links.issue(account("test"), NOW).url());
        String payload = token.substring(0, token.lastIndexOf('.'));
        String signature = token.substring(token.lastIndexOf('.') + 1);
        // The same signature over another account's payload (the mode switched to live).
        String other = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8)
                        .replace("|test|", "|live|")
                        .getBytes(StandardCharsets.UTF_8));
        assertThat(refusalOf(() -> links.open(other + "." + signature, NOW)))
                .isEqualTo(ConnectRefusal.Reason.UNKNOWN_LINK);
        assertThat(refusalOf(() -> links.open(payload + ".AAAA", NOW))).isEqualTo(ConnectRefusal.Reason.UNKNOWN_LINK);
        assertThat(refusalOf(() -> links.open("garbage", NOW))).isEqualTo(ConnectRefusal.Reason.UNKNOWN_LINK);
        assertThat(refusalOf(() -> links.open(null, NOW))).isEqualTo(ConnectRefusal.Reason.UNKNOWN_LINK);
        assertThat(refusalOf(() -> links.open("x".repeat(600), NOW))).isEqualTo(ConnectRefusal.Reason.UNKNOWN_LINK);
    }

    @Test
    void aValueSignedForAnotherPurposeIsNoLink() {
        String payload = token(links.issue(account("test"), NOW).url());
        payload = payload.substring(0, payload.lastIndexOf('.'));
        // A genuine signature of this server, but for OAuth state or a cookie, not for a reconnect link.
        String cookieLike = signatures.signed("cookie", payload);
        assertThat(refusalOf(() -> links.open(cookieLike, NOW))).isEqualTo(ConnectRefusal.Reason.UNKNOWN_LINK);
    }

    @Test
    void aSignedPayloadWithAnUnknownModeIsNoLink() {
        String payload = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(("wks_0123456789abcdef01234567|staging|acc_0123456789abcdef01234567|"
                                + NOW.plus(Duration.ofDays(1)).getEpochSecond())
                        .getBytes(StandardCharsets.UTF_8));
        assertThat(refusalOf(() -> links.open(signatures.signed("reconnect", payload), NOW)))
                .isEqualTo(ConnectRefusal.Reason.UNKNOWN_LINK);
    }
}
