package dev.herald.accounts.service;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * WCAG 2.2's contrast ratio of a branding's accent colour against white: the page puts white text on the accent
 * (buttons) and the accent as text on white (links), so one ratio decides both. AA for normal text asks 4.5:1.
 */
public final class AccentContrast {
    /** {@code #rrggbb}, either case. */
    public static final Pattern HEX_COLOR = Pattern.compile("^#[0-9a-fA-F]{6}$");

    private AccentContrast() {}

    /** The ratio (1 to 21) of {@code #rrggbb} against white. */
    public static double againstWhite(String hexColor) {
        int rgb = Integer.parseInt(hexColor.substring(1), 16);
        double luminance = 0.2126 * channel(rgb >> 16) + 0.7152 * channel(rgb >> 8) + 0.0722 * channel(rgb);
        return 1.05 / (luminance + 0.05);
    }

    /** The ratio as the message states it: rounded down to two decimals, so 4.499 never reads as 4.50. */
    public static String shown(double ratio) {
        return String.format(Locale.ROOT, "%.2f", Math.floor(ratio * 100) / 100);
    }

    /** An sRGB channel's linear value (WCAG 2.2's relative luminance). */
    private static double channel(int value) {
        double c = (value & 0xff) / 255.0;
        return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }
}
