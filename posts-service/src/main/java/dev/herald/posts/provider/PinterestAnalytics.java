package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostAnalytics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * A pin's impressions (views) and saves ({@code GET /v5/pins/{id}/analytics}, {@code summary_metrics} of
 * {@code all}). Pinterest answers dates within the last 90 days only, so the range is the 90 days up to today (UTC):
 * for an older pin the numbers are those of the last 90 days, not its lifetime. Pinterest has no likes, comments,
 * shares or reach in this API (null).
 */
@ApplicationScoped
public class PinterestAnalytics implements AnalyticsReader {
    static final String METRICS = "IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK";
    static final int DAYS = 90;

    private final PinterestPinsApi api;
    private final ObjectMapper mapper;
    private final Clock clock;

    public PinterestAnalytics(@RestClient PinterestPinsApi api, ObjectMapper mapper, Clock clock) {
        this.api = api;
        this.mapper = mapper;
        this.clock = clock;
    }

    @Override
    public Platform platform() {
        return Platform.PINTEREST;
    }

    @Override
    public Uni<ProviderMetrics> read(ActingAccount account, String providerPostId) {
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        return api.analytics(
                        account.bearer(),
                        providerPostId,
                        today.minusDays(DAYS - 1).toString(),
                        today.toString(),
                        METRICS)
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode body =
                            PlatformFailures.body(platform(), account, response, mapper, PinterestAnalytics::error);
                    JsonNode summary = body.path("all").path("summary_metrics");
                    return new ProviderMetrics(
                            new PostAnalytics.Metrics(
                                    ProviderMetrics.count(summary.path("IMPRESSION")),
                                    null,
                                    null,
                                    null,
                                    ProviderMetrics.count(summary.path("SAVE")),
                                    null),
                            summary);
                });
    }

    /** Pinterest's errors: {@code {"code": <number>, "message"}}; 401 a refused token, 429 its rate limit. */
    static PlatformFailures.PlatformError error(int status, JsonNode body) {
        String code = body.path("code").isNumber() ? body.get("code").asText() : null;
        String message = body.path("message").asText("");
        if (status == 401) {
            return new PlatformFailures.PlatformError(PlatformFailures.Kind.TOKEN_REFUSED, code, message);
        }
        if (status == 429) {
            return new PlatformFailures.PlatformError(PlatformFailures.Kind.RATE_LIMITED, code, message);
        }
        return new PlatformFailures.PlatformError(PlatformFailures.Kind.FAILED, code, message);
    }
}
