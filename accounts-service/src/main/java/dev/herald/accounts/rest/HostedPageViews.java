package dev.herald.accounts.rest;

import dev.herald.accounts.model.AccountEntity;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import io.quarkus.qute.RawString;
import java.util.List;

/** What the hosted page templates show; built by {@link HostedConnectPages}. */
public final class HostedPageViews {
    private HostedPageViews() {}

    /**
     * What every hosted page shares: its language, its CSP nonce, its brand and, when it may be framed, the embedding
     * origin its script posts to ({@code embedMessage}: the completion message, JSON, on the closing page only).
     */
    public record PageFrame(String lang, String nonce, BrandView brand, String embedOrigin, String embedMessage) {}

    /**
     * Whose page it is: the header's name and logo, the accent colour of buttons and links ({@code accent},
     * {@code #rrggbb}, already checked for contrast; null: Herald's neutral blue) and the footer's links. Without
     * branding, Herald's neutral look: its name, no logo, no links.
     */
    public record BrandView(String name, String logoUrl, String accent, String supportUrl, String privacyUrl) {
        public static final BrandView HERALD = new BrandView("Herald", null, null, null, null);
    }

    /**
     * The session page. {@code consentNeeded}: YouTube accounts whose owner has not passed the legal step yet;
     * {@code connected}: the account the last step connected, named in the notice; {@code notice}: any other notice
     * (HTML). {@code reconnect}: the one account a reconnect session re-authorizes (null for an ordinary session).
     * Names and handles are rendered in {@code <bdi>}, so a right-to-left override in one cannot reverse the text
     * around it.
     */
    public record SessionView(
            String sessionId,
            boolean testMode,
            AccountView reconnect,
            String csrf,
            List<PlatformView> platforms,
            List<AccountView> accounts,
            List<AccountView> consentNeeded,
            AccountView connected,
            RawString notice,
            String error,
            String policyVersion,
            String expires,
            String app) {
        public boolean canFinish() {
            return !accounts.isEmpty();
        }
    }

    /** A platform the page offers: its localized name, its mark and what its access allows, in words. */
    public record PlatformView(String id, String label, PlatformMark mark, String scopes) {
        static PlatformView of(Platform platform, HostedPageText text) {
            return new PlatformView(
                    platform.wireName(), text.platformName(platform), PlatformMark.of(platform), text.scopes(platform));
        }
    }

    /**
     * An account the session connected. {@code authorizationRevision}: the authorization the page shows, which a
     * consent given on it is bound to; {@code health}: its health in words, {@code healthy} whether it works.
     */
    public record AccountView(
            String id,
            String platformLabel,
            PlatformMark mark,
            String name,
            String username,
            long authorizationRevision,
            boolean healthy,
            String health,
            String connectedOn) {
        static AccountView of(AccountEntity account, HostedPageText text) {
            Platform platform = Platform.fromWire(account.platform).orElseThrow();
            return new AccountView(
                    account.id,
                    text.platformName(platform),
                    PlatformMark.of(platform),
                    account.name,
                    account.username,
                    account.authorizationRevision,
                    Account.CONNECTED.equals(account.status) && AccountHealth.HEALTHY.equals(account.healthStatus),
                    text.health(account),
                    text.messages().connected_on(text.date(account.connectedAt)));
        }

        /**
         * The username as people write it: one {@code @} before a handle (YouTube's already has it), and nothing for
         * an identifier that is no handle (a LinkedIn member's URN), which the page then leaves out.
         */
        public String handle() {
            if (username == null || username.isBlank() || username.startsWith("urn:")) {
                return null;
            }
            return username.startsWith("@") ? username : "@" + username;
        }

        /** Name and handle, each in its own {@code <bdi>}, for messages that name the account. */
        public String html() {
            return HostedPageText.isolated(name, handle());
        }
    }

    /**
     * A page that only explains: a dead link, another browser, a provider failure, or the end of the flow (then with
     * the accounts connected). {@code message} is HTML.
     */
    public record MessageView(
            String title, RawString message, String code, String backUrl, List<AccountView> accounts) {}
}
