package dev.herald.common.wire;

import java.time.Instant;

/**
 * How the hosted connect page of a workspace and mode looks ({@code GET|PUT /branding}); every field but
 * {@code updatedAt} may be null (Herald's neutral look for that part). {@code logoUrl} is the customer's URL the logo
 * was fetched from, once, when the branding was set; {@code hostedLogoUrl} is where Herald serves that copy, the URL
 * the page shows (it changes when the image does). {@code accentColor} is {@code #rrggbb}, dark enough for white text
 * ({@link #MIN_CONTRAST_RATIO}).
 */
public record Branding(
        String displayName,
        String logoUrl,
        String hostedLogoUrl,
        String accentColor,
        String supportUrl,
        String privacyUrl,
        Instant updatedAt) {
    /** The longest display name, in characters (code points), as for a connect session's override. */
    public static final int MAX_DISPLAY_NAME_LENGTH = 100;

    /** The longest URL (logo, support, privacy). */
    public static final int MAX_URL_LENGTH = 2048;

    /** The largest logo Herald fetches and keeps. */
    public static final int MAX_LOGO_BYTES = 256 * 1024;

    /** WCAG 2.2 AA for normal text: white text on the accent, and the accent as text on white. */
    public static final double MIN_CONTRAST_RATIO = 4.5;
}
