package dev.herald.accounts.rest;

import dev.herald.common.wire.Platform;
import java.util.List;

/** What the hosted page templates show; built by {@link HostedConnectPages}. */
public final class HostedPageViews {
    private HostedPageViews() {}

    /**
     * The session page. {@code consentNeeded}: YouTube accounts whose owner has not passed the legal step yet;
     * {@code connected}: the account the last step connected, named in the notice; {@code notice}: any other notice.
     * {@code reconnect}: the one account a reconnect session re-authorizes (null for an ordinary session). Names and
     * handles are rendered in {@code <bdi>}, so a right-to-left override in one cannot reverse the text around it.
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
            String notice,
            String error,
            String policyVersion) {
        public boolean canFinish() {
            return !accounts.isEmpty();
        }
    }

    public record PlatformView(String id, String label) {
        static PlatformView of(Platform platform) {
            return new PlatformView(platform.wireName(), platform.displayName());
        }
    }

    /** {@code authorizationRevision}: the authorization the page shows, which a consent given on it is bound to. */
    public record AccountView(
            String id, String platformLabel, String name, String username, long authorizationRevision) {
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
    }

    /**
     * The customer's branding as every page shows it: the name and logo in the header, the accent as the CSS custom
     * property {@code --accent}, the support and privacy links in the footer. Each part null: Herald's neutral look for
     * it ({@link #NEUTRAL}: all of them). {@code logoPath} is on the page's own origin; {@code accent} is
     * {@code #rrggbb}, checked when it was set, so it is safe inside the style sheet.
     */
    public record BrandView(String displayName, String logoPath, String accent, String supportUrl, String privacyUrl) {
        public static final BrandView NEUTRAL = new BrandView(null, null, null, null, null);

        /** Whether the page has a footer at all. */
        public boolean hasLinks() {
            return supportUrl != null || privacyUrl != null;
        }
    }

    /** A page that only explains: a dead link, another browser, a provider failure, or the end of the flow. */
    public record MessageView(String title, String message, String code, String backUrl) {}
}
