package dev.herald.delivery.support;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * One local WireMock server standing in for what live publishers call: the platforms' APIs (LinkedIn's
 * {@code /rest/posts}, Graph's Pages endpoints under {@code /v24.0}, Pinterest's {@code /v5}, Instagram's under {@code /ig/v24.0}, YouTube's {@code /upload/youtube/v3}, TikTok's {@code /v2/post/publish}, and media files for uploads) and accounts-service's {@code /internal/accounts/{id}/access-token}. Tests stub and verify
 * through {@link #client()}, WireMock's admin API over HTTP, which works whatever class loader started the server.
 */
public class FakePlatformApis implements QuarkusTestResourceLifecycleManager {
    private static final String PORT_PROPERTY = "herald.test.fake-platforms.port";
    private WireMockServer server;

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(
                WireMockConfiguration.wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
        System.setProperty(PORT_PROPERTY, Integer.toString(server.port()));
        String url = "http://127.0.0.1:" + server.port();
        return properties(
                "quarkus.rest-client.linkedin-api.url",
                url,
                "quarkus.rest-client.facebook-graph.url",
                url + "/v24.0",
                "herald.publishers.facebook.upload-url",
                url + "/video-upload/v24.0",
                "herald.publishers.pinterest.api-url",
                url,
                "quarkus.rest-client.instagram-graph.url",
                url + "/ig/v24.0",
                "herald.publishers.instagram.status-interval",
                "PT0.05S",
                "herald.publishers.instagram.reels-check-interval",
                "PT1S",
                "herald.publishers.linkedin.video-check-interval",
                "PT1S",
                "herald.publishers.pinterest.video-check-interval",
                "PT1S",
                "quarkus.rest-client.accounts-service.url",
                url,
                "herald.delivery.reconcile.interval",
                "PT0.2S",
                "herald.publishers.youtube.api-url",
                url,
                "herald.publishers.youtube.upload-url",
                url,
                "herald.publishers.tiktok.api-url",
                url,
                // TikTok's smallest chunk, so a test file of a few chunks stays small.
                "herald.publishers.tiktok.chunk-size",
                "5242880",
                // WireMock serves the tests' media over plain http on 127.0.0.1.
                "herald.media.allow-private-urls",
                "true");
    }

    /** Map.of stops at ten pairs. */
    private static Map<String, String> properties(String... keysAndValues) {
        Map<String, String> properties = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return properties;
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }

    public static WireMock client() {
        return new WireMock("127.0.0.1", Integer.getInteger(PORT_PROPERTY));
    }
}
