package dev.herald.accounts.rest;

import dev.herald.accounts.service.AccentContrast;
import dev.herald.accounts.service.BrandingRequest;
import dev.herald.accounts.service.LogoFetcher;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.Branding;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a {@code PUT /branding} body, and the display name a connect session may carry instead of its branding's.
 * Every field is optional (absent or null: not set) and every problem is reported at once, each on its field.
 */
final class BrandingFields {
    static final Set<String> FIELDS = Set.of("display_name", "logo_url", "accent_color", "support_url", "privacy_url");

    /**
     * No control characters (C0, DEL, C1) and no line or paragraph separator: a name is one line of the page's header.
     * Kept in the OpenAPI document's pattern of {@code display_name}.
     */
    static final Pattern ONE_LINE = Pattern.compile("^[^\\x00-\\x1F\\x7F-\\x9F\\u2028\\u2029]*$");

    private static final Pattern HEX_COLOR = AccentContrast.HEX_COLOR;

    private BrandingFields() {}

    static BrandingRequest read(JsonBody body, LogoFetcher logos) {
        String displayName = displayName(body, "display_name");
        String logoUrl = body.string("logo_url")
                .nullable()
                .length(1, Branding.MAX_URL_LENGTH)
                .read()
                .orNull();
        if (logoUrl != null) {
            logos.formProblem(logoUrl)
                    .ifPresent(problem -> body.reject("logo_url", "invalid_format", "logo_url " + problem + "."));
        }
        String accent = accentColor(body);
        String support = pageUrl(body, "support_url");
        String privacy = pageUrl(body, "privacy_url");
        return new BrandingRequest(displayName, logoUrl, accent, support, privacy);
    }

    /** A name of 1 to 100 characters, trimmed, on one line; null when absent or null. */
    static String displayName(JsonBody body, String field) {
        return body.string(field)
                .nullable()
                .trimmed()
                .length(1, Branding.MAX_DISPLAY_NAME_LENGTH)
                .matching(ONE_LINE, "one line of text without control characters")
                .read()
                .orNull();
    }

    /** {@code #rrggbb} with a contrast of at least 4.5:1 against white; answered lower-case. */
    private static String accentColor(JsonBody body) {
        String color = body.string("accent_color")
                .nullable()
                .matching(HEX_COLOR, "a colour written #rrggbb, like #0b57d0")
                .read()
                .orNull();
        if (color == null) {
            return null;
        }
        double ratio = AccentContrast.againstWhite(color);
        if (ratio < Branding.MIN_CONTRAST_RATIO) {
            body.reject(
                    "accent_color",
                    "invalid_value",
                    "accent_color " + color + " has a contrast ratio of " + AccentContrast.shown(ratio)
                            + ":1 against white; the page needs at least 4.5:1 (WCAG 2.2 AA) for white text on it"
                            + " and for it as text on white: choose a darker colour.");
            return null;
        }
        return color.toLowerCase(Locale.ROOT);
    }

    /** An absolute https URL with a host, no user information and a port from 1 to 65535 if any. */
    private static String pageUrl(JsonBody body, String field) {
        String text = body.string(field)
                .nullable()
                .length(1, Branding.MAX_URL_LENGTH)
                .read()
                .orNull();
        if (text == null) {
            return null;
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            uri = null;
        }
        if (uri == null
                || !"https".equalsIgnoreCase(uri.getScheme())
                || uri.getHost() == null
                || uri.getRawUserInfo() != null
                || !dev.herald.common.net.PublicUrls.hasReachablePort(uri)) {
            body.reject(
                    field,
                    "invalid_format",
                    field + " must be an absolute https:// URL with a host, no user:password@ and a port from 1 to"
                            + " 65535 if any.");
            return null;
        }
        return text;
    }
}
