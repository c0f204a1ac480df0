package dev.herald.delivery.support;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.delivery.provider.PublishRequest;
import java.util.List;

/**
 * One live target for a publisher test: new workspace, account and post ids, the {@link FakePlatformApis} fake reset,
 * and accounts-service's access endpoint answering the account's identity and a token.
 */
public final class LiveTarget {
    public final String workspace;
    public final String accountId = ResourceIds.newId(IdPrefix.ACCOUNT);
    public final String postId = ResourceIds.newId(IdPrefix.POST);
    public final WireMock fake = FakePlatformApis.client();
    private final Platform platform;
    private final String externalId;

    /** A target whose account is {@code externalId} at {@code platform}, its access token {@code token}. */
    public LiveTarget(Platform platform, String externalId, String token) {
        this.workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        this.platform = platform;
        this.externalId = externalId;
        fake.resetMappings();
        fake.resetRequests();
        fake.resetScenarios();
        fake.register(post(urlPathEqualTo(accessPath())).willReturn(okJson(access(token))));
    }

    /** Another target of {@code workspace}, next to one made before: the fake keeps its stubs and requests. */
    public LiveTarget(Platform platform, String externalId, String token, String workspace) {
        this.workspace = workspace;
        this.platform = platform;
        this.externalId = externalId;
        fake.register(post(urlPathEqualTo(accessPath())).willReturn(okJson(access(token))));
    }

    public String accessPath() {
        return "/internal/accounts/" + accountId + "/access-token";
    }

    /** accounts-service's answer handing out {@code token}. */
    public String access(String token) {
        return """
                {"data":{"account_id":"%s","platform":"%s","external_id":"%s","access_token":"%s",
                 "expires_at":"2026-12-31T00:00:00Z"}}""".formatted(accountId, platform.wireName(), externalId, token);
    }

    public PublishRequest request(String text, Post.Media media, ObjectNode options, int attempt) {
        return requestWithItems(text, media == null ? List.of() : List.of(media), options, attempt);
    }

    /** The same with several media items (a carousel), in order. */
    public PublishRequest requestWithItems(String text, List<Post.Media> media, ObjectNode options, int attempt) {
        return new PublishRequest(
                PublishRequest.tokenOf(postId, accountId),
                workspace,
                Mode.LIVE,
                platform,
                postId,
                accountId,
                "acme",
                text,
                media,
                options,
                attempt,
                false);
    }

    /** The request the reconciler makes for this target once it is uncertain. */
    public PublishRequest reconciling(String text, Post.Media media, ObjectNode options, int attempts) {
        return new PublishRequest(
                PublishRequest.tokenOf(postId, accountId),
                workspace,
                Mode.LIVE,
                platform,
                postId,
                accountId,
                "acme",
                text,
                media == null ? List.of() : List.of(media),
                options,
                attempts,
                true);
    }

    public static ObjectNode noOptions() {
        return DeliveryTestSupport.JSON.createObjectNode();
    }
}
