package dev.herald.accounts.rest;

import io.quarkus.qute.i18n.MessageBundle;

/**
 * The hosted connect page's words, in English ({@code messages/msg_en.properties}, the default) and in German, French,
 * Spanish and Portuguese ({@code msg_de}, {@code msg_fr}, {@code msg_es}, {@code msg_pt}). Templates read them as
 * {@code {msg:key}} in the page's locale; {@link HostedPageText} reads those the page builds in Java (platform names,
 * health, refusals). The build fails when an English text is missing; HostedPageMessagesTest when a translation is.
 * Parameters named {@code account} are HTML fragments (names in {@code <bdi>}), the others plain text.
 */
@MessageBundle(value = "msg", locale = "en")
public interface HostedPageMessages {
    String page_title();

    String skip_to_content();

    String footer_note();

    String heading();

    String intro();

    String expires(String date);

    String reconnect_heading(String account, String platform);

    String reconnect_note();

    String sandbox_label();

    String sandbox_note();

    String sandbox_note_reconnect();

    String connected_notice(String platform, String account);

    String consent_recorded(String account);

    String connected_heading();

    String connected_on(String date);

    String health_healthy();

    String health_reauth_required();

    String health_disconnected();

    String consent_heading(String account);

    String consent_text(String version);

    String consent_checkbox(String version);

    String consent_submit();

    String consent_missing();

    String platforms_heading();

    String access_label(String app);

    String scopes_tiktok();

    String scopes_instagram();

    String scopes_facebook();

    String scopes_youtube();

    String scopes_pinterest();

    String scopes_linkedin();

    String name_label();

    String username_label();

    String name_missing(String max);

    String authorize(String platform);

    String continue_with(String platform);

    String live_hint(String platform);

    String reconnect_hint(String platform, String account);

    String reconnect_button(String platform);

    String no_platform();

    String finish_heading();

    String finish_text();

    String finish_button();

    String refused_account_limit();

    String refused_usage_limit();

    String refused_conflict(String detail);

    String refused_other(String code);

    String done_title();

    String done_message();

    String error_title();

    String error_message();

    String reference();

    String back_link();

    String unknown_link_title();

    String unknown_link_message();

    String expired_title();

    String expired_message();

    String revoked_title();

    String revoked_message();

    String completed_title();

    String completed_message();

    String other_browser_title();

    String other_browser_message();

    String invalid_form_title();

    String invalid_form_message();

    String authorization_denied_title();

    String authorization_denied_message();

    String platform_unavailable_title();

    String platform_unavailable_message();

    String other_account_title();

    String other_account_message();

    String other_account_detail(String platform, String account);

    String provider_failed_title();

    String provider_failed_message();

    String platform_tiktok();

    String platform_instagram();

    String platform_facebook();

    String platform_youtube();

    String platform_pinterest();

    String platform_linkedin();

    String footer_support();

    String footer_privacy();
}
