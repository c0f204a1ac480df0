package dev.herald.accounts.rest;

import dev.herald.accounts.rest.HostedPageViews.MessageView;
import dev.herald.accounts.rest.HostedPageViews.PageFrame;
import dev.herald.accounts.rest.HostedPageViews.SessionView;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

/**
 * The hosted connect pages' Qute templates ({@code templates/HostedPages/}), checked at build time. {@code frame} is
 * what every page shares (language, CSP nonce of its one style sheet and script, brand, embedding), read by the
 * layout; each instance is rendered with {@code setLocale}, which picks the {@link HostedPageMessages} translation.
 */
@CheckedTemplate(basePath = "HostedPages")
public class HostedPages {
    public static native TemplateInstance session(SessionView page, PageFrame frame);

    public static native TemplateInstance message(MessageView page, PageFrame frame);
}
