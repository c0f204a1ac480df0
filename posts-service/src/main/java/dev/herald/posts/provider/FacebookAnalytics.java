package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostAnalytics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * A Page post's numbers in one Graph call, with field expansion: the reactions and comments edges' summaries
 * ({@code summary.total_count}; {@code limit(0)} lists none of them), {@code shares.count} (absent when never shared,
 * which is 0) and the post's lifetime insights {@code post_impressions} (views) and {@code post_impressions_unique}
 * (reach). Facebook has no saves. Reactions of every kind count as likes.
 */
@ApplicationScoped
public class FacebookAnalytics implements AnalyticsReader {
    static final String FIELDS =
            "shares,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),"
                    + "insights.metric(post_impressions,post_impressions_unique)";

    private final FacebookPostApi api;
    private final ObjectMapper mapper;

    public FacebookAnalytics(@RestClient FacebookPostApi api, ObjectMapper mapper) {
        this.api = api;
        this.mapper = mapper;
    }

    @Override
    public Platform platform() {
        return Platform.FACEBOOK;
    }

    @Override
    public Uni<ProviderMetrics> read(ActingAccount account, String providerPostId) {
        return api.post(account.bearer(), providerPostId, FIELDS)
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode body = PlatformFailures.body(platform(), account, response, mapper, GraphErrors::read);
                    Long views = null;
                    Long reach = null;
                    for (JsonNode insight : body.path("insights").path("data")) {
                        Long value = ProviderMetrics.count(
                                insight.path("values").path(0).path("value"));
                        switch (insight.path("name").asText("")) {
                            case "post_impressions" -> views = value;
                            case "post_impressions_unique" -> reach = value;
                            default -> {}
                        }
                    }
                    Long shares = body.has("shares")
                            ? ProviderMetrics.count(body.path("shares").path("count"))
                            : Long.valueOf(0);
                    return new ProviderMetrics(
                            new PostAnalytics.Metrics(
                                    views,
                                    ProviderMetrics.count(body.path("reactions")
                                            .path("summary")
                                            .path("total_count")),
                                    ProviderMetrics.count(body.path("comments")
                                            .path("summary")
                                            .path("total_count")),
                                    shares,
                                    null,
                                    reach),
                            body);
                });
    }
}
