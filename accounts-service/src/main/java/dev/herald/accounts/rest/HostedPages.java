package dev.herald.accounts.rest;

import dev.herald.accounts.rest.HostedPageViews.BrandView;
import dev.herald.accounts.rest.HostedPageViews.MessageView;
import dev.herald.accounts.rest.HostedPageViews.SessionView;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

/**
 * The hosted connect pages' Qute templates ({@code templates/HostedPages/}), checked at build time. {@code nonce}
 * is the Content-Security-Policy nonce of the page's one inline style sheet; {@code brand} is the customer's branding
 * ({@link BrandView#NEUTRAL} when none, or when the page knows no session).
 */
@CheckedTemplate(basePath = "HostedPages")
public class HostedPages {
    public static native TemplateInstance session(SessionView page, BrandView brand, String nonce);

    public static native TemplateInstance message(MessageView page, BrandView brand, String nonce);
}
