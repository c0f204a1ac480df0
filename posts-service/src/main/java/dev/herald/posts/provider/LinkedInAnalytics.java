package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostAnalytics;
import dev.herald.posts.config.CommentsConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * A LinkedIn post's likes and comments from its social actions summary ({@code GET /rest/socialActions/{urn}}, the
 * same API and grant as its comments): {@code likesSummary.totalLikes} and
 * {@code commentsSummary.aggregatedTotalComments} (replies included). Impressions, reach and reshares need LinkedIn's
 * per-metric analytics finders (one call each, organization or creator scopes Herald is not granted), so they are null.
 */
@ApplicationScoped
public class LinkedInAnalytics implements AnalyticsReader {
    private final LinkedInSocialActionsApi api;
    private final CommentsConfig config;
    private final ObjectMapper mapper;

    public LinkedInAnalytics(@RestClient LinkedInSocialActionsApi api, CommentsConfig config, ObjectMapper mapper) {
        this.api = api;
        this.config = config;
        this.mapper = mapper;
    }

    @Override
    public Platform platform() {
        return Platform.LINKEDIN;
    }

    @Override
    public Uni<ProviderMetrics> read(ActingAccount account, String providerPostId) {
        return api.summary(
                        account.bearer(),
                        config.linkedinApiVersion(),
                        LinkedInCommentsApi.PROTOCOL_VERSION,
                        LinkedInComments.encode(providerPostId))
                .onFailure()
                .recoverWithUni(failure -> PlatformFailures.unreachable(platform(), account, failure))
                .map(response -> {
                    JsonNode body =
                            PlatformFailures.body(platform(), account, response, mapper, LinkedInComments::error);
                    return new ProviderMetrics(
                            new PostAnalytics.Metrics(
                                    null,
                                    ProviderMetrics.count(
                                            body.path("likesSummary").path("totalLikes")),
                                    ProviderMetrics.count(
                                            body.path("commentsSummary").path("aggregatedTotalComments")),
                                    null,
                                    null,
                                    null),
                            body);
                });
    }
}
