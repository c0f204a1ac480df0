package dev.herald.gateway.rest;

import io.quarkus.qute.TemplateExtension;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How the dashboard's templates show values: {@code {key.createdAt.shown}}. */
@TemplateExtension
public final class DashboardFormats {
    private static final DateTimeFormatter SHOWN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private DashboardFormats() {}

    /** A moment to the second in UTC, e.g. {@code 2026-11-27 21:53:31 UTC} (the API's own times are UTC too). */
    static String shown(Instant instant) {
        return SHOWN.format(instant);
    }
}
