package dev.herald.gateway.rest;

import dev.herald.common.wire.TargetError;
import io.quarkus.qute.TemplateExtension;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How the dashboard's templates show values: {@code {key.createdAt.shown}}, {@code {error.actionLabel}}. */
@TemplateExtension
public final class DashboardFormats {
    private static final DateTimeFormatter SHOWN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private DashboardFormats() {}

    /** A moment to the second in UTC, e.g. {@code 2026-11-27 21:53:31 UTC} (the API's own times are UTC too). */
    static String shown(Instant instant) {
        return SHOWN.format(instant);
    }

    /** What kind of problem a failed target's error is, in words ({@code auth}: "Account access"). */
    static String categoryLabel(TargetError error) {
        return switch (error.category()) {
            case TargetError.CATEGORY_AUTH -> "Account access";
            case TargetError.CATEGORY_CONTENT -> "Content";
            case TargetError.CATEGORY_MEDIA -> "Media";
            case TargetError.CATEGORY_RATE_LIMIT -> "Rate limit";
            case TargetError.CATEGORY_NETWORK -> "Network";
            default -> "Platform";
        };
    }

    /** What the customer can do about a failed target's error ({@code reconnect}: "Reconnect the account"). */
    static String actionLabel(TargetError error) {
        return switch (error.action()) {
            case TargetError.ACTION_RECONNECT -> "Reconnect the account";
            case TargetError.ACTION_EDIT_CONTENT -> "Edit the post";
            case TargetError.ACTION_REPLACE_MEDIA -> "Replace the media";
            case TargetError.ACTION_RETRY_LATER -> "Try again later";
            default -> "Contact support";
        };
    }
}
