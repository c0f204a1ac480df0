package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostAnalytics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * A media object's lifetime insights ({@code GET /{media-id}/insights?metric=views,reach,likes,comments,shares,saved}).
 * Instagram leaves out a metric it has no data for rather than answering 0, so such a metric is null; raw holds each
 * metric Instagram answered by its own name.
 */
@ApplicationScoped
public class InstagramAnalytics implements AnalyticsReader {
    static final String METRICS = "views,reach,likes,comments,shares,saved";

    private final InstagramInsightsApi api;
    private final ObjectMapper mapper;

    public InstagramAnalytics(@RestClient InstagramInsightsApi api, ObjectMapper mapper) {
        this.api = api;
        this.mapper = mapper;
    }

    @Override
    public Platform platform() {
        return Platform.INSTAGRAM;
    }

    @Override
    public Uni<ProviderMetrics> read(ActingAccount account, String providerPostId) {
        return api.insights(account.bearer(), providerPostId, METRICS)
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode body = PlatformFailures.body(platform(), account, response, mapper, GraphErrors::read);
                    ObjectNode raw = mapper.createObjectNode();
                    for (JsonNode metric : body.path("data")) {
                        JsonNode value = metric.path("values").path(0).path("value");
                        if (metric.path("name").isTextual() && !value.isMissingNode()) {
                            raw.set(metric.get("name").asText(), value);
                        }
                    }
                    return new ProviderMetrics(
                            new PostAnalytics.Metrics(
                                    ProviderMetrics.count(raw.get("views")),
                                    ProviderMetrics.count(raw.get("likes")),
                                    ProviderMetrics.count(raw.get("comments")),
                                    ProviderMetrics.count(raw.get("shares")),
                                    ProviderMetrics.count(raw.get("saved")),
                                    ProviderMetrics.count(raw.get("reach"))),
                            raw);
                });
    }
}
