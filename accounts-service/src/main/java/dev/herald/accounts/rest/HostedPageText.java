package dev.herald.accounts.rest;

import dev.herald.accounts.model.AccountEntity;
import dev.herald.accounts.service.ConnectRefusal;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import io.quarkus.qute.HtmlEscaper;
import io.quarkus.qute.i18n.Localized;
import io.quarkus.qute.i18n.MessageBundles;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.List;
import java.util.Locale;

/**
 * The words a hosted page builds in Java, in the page's language: platform names and what each one's access allows,
 * accounts' health, dates, and refusals. Everything else the templates read from {@link HostedPageMessages} directly.
 */
public final class HostedPageText {
    private static final HtmlEscaper HTML = new HtmlEscaper(List.of("text/html"));

    private final Locale locale;
    private final HostedPageMessages messages;
    private final DateTimeFormatter dates;

    public HostedPageText(Locale locale) {
        this.locale = locale;
        this.messages = MessageBundles.get(HostedPageMessages.class, Localized.Literal.of(locale.toLanguageTag()));
        // The end user's time zone is unknown to the server: dates are shown in UTC, and say so.
        this.dates = DateTimeFormatter.ofLocalizedDateTime(FormatStyle.LONG, FormatStyle.SHORT)
                .withLocale(locale)
                .withZone(ZoneOffset.UTC);
    }

    public Locale locale() {
        return locale;
    }

    /** The {@code <html lang>} value. */
    public String lang() {
        return locale.toLanguageTag();
    }

    public HostedPageMessages messages() {
        return messages;
    }

    public String date(Instant instant) {
        return dates.format(instant) + " UTC";
    }

    public String platformName(Platform platform) {
        return switch (platform) {
            case TIKTOK -> messages.platform_tiktok();
            case INSTAGRAM -> messages.platform_instagram();
            case FACEBOOK -> messages.platform_facebook();
            case YOUTUBE -> messages.platform_youtube();
            case PINTEREST -> messages.platform_pinterest();
            case LINKEDIN -> messages.platform_linkedin();
        };
    }

    /** What Herald may do with the access {@code ProvidersConfig}'s default scopes ask for, in one plain line. */
    public String scopes(Platform platform) {
        return switch (platform) {
            case TIKTOK -> messages.scopes_tiktok();
            case INSTAGRAM -> messages.scopes_instagram();
            case FACEBOOK -> messages.scopes_facebook();
            case YOUTUBE -> messages.scopes_youtube();
            case PINTEREST -> messages.scopes_pinterest();
            case LINKEDIN -> messages.scopes_linkedin();
        };
    }

    /** The account's health in words; the page shows a symbol beside it, so colour is never the only sign. */
    public String health(AccountEntity account) {
        if (!Account.CONNECTED.equals(account.status) || AccountHealth.DISCONNECTED.equals(account.healthStatus)) {
            return messages.health_disconnected();
        }
        return AccountHealth.REAUTH_REQUIRED.equals(account.healthStatus)
                ? messages.health_reauth_required()
                : messages.health_healthy();
    }

    public String refusalTitle(ConnectRefusal.Reason reason) {
        return switch (reason) {
            case UNKNOWN_LINK -> messages.unknown_link_title();
            case EXPIRED -> messages.expired_title();
            case REVOKED -> messages.revoked_title();
            case COMPLETED -> messages.completed_title();
            case OTHER_BROWSER -> messages.other_browser_title();
            case INVALID_FORM -> messages.invalid_form_title();
            case AUTHORIZATION_DENIED -> messages.authorization_denied_title();
            case PLATFORM_UNAVAILABLE -> messages.platform_unavailable_title();
            case OTHER_ACCOUNT -> messages.other_account_title();
            case PROVIDER_FAILED -> messages.provider_failed_title();
        };
    }

    /** A refusal's explanation as HTML: the reason's own words, or the account a reconnect link expected. */
    public String refusalMessageHtml(ConnectRefusal refusal) {
        if (refusal.expectedAccount() != null) {
            ConnectRefusal.ExpectedAccount expected = refusal.expectedAccount();
            return messages.other_account_detail(
                    escape(platformName(expected.platform())), isolated(expected.name(), expected.who()));
        }
        return escape(
                switch (refusal.reason()) {
                    case UNKNOWN_LINK -> messages.unknown_link_message();
                    case EXPIRED -> messages.expired_message();
                    case REVOKED -> messages.revoked_message();
                    case COMPLETED -> messages.completed_message();
                    case OTHER_BROWSER -> messages.other_browser_message();
                    case INVALID_FORM -> messages.invalid_form_message();
                    case AUTHORIZATION_DENIED -> messages.authorization_denied_message();
                    case PLATFORM_UNAVAILABLE -> messages.platform_unavailable_message();
                    case OTHER_ACCOUNT -> messages.other_account_message();
                    case PROVIDER_FAILED -> messages.provider_failed_message();
                });
    }

    /**
     * A name and handle as an HTML fragment, each in its own {@code <bdi>}, so a right-to-left override in one cannot
     * reverse the sentence around it: {@code <bdi>Ada</bdi> (<bdi>@ada</bdi>)}.
     */
    public static String isolated(String name, String handle) {
        String html = "<bdi>" + escape(name) + "</bdi>";
        return handle == null ? html : html + " (<bdi>" + escape(handle) + "</bdi>)";
    }

    /** Qute's own escaping, the one its templates apply to every value (the expression is not needed to escape). */
    public static String escape(String text) {
        return HTML.map(text == null ? "" : text, null);
    }
}
