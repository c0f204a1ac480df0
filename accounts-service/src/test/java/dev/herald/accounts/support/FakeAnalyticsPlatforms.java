package dev.herald.accounts.support;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * One local WireMock server standing in for the platforms' account statistics endpoints (Graph for Facebook, the
 * YouTube Data API, and TikTok's API host under {@code /tiktok} with a configured app, so its tokens can be renewed); tests stub and verify through {@link #client()}, WireMock's admin API over HTTP.
 */
public class FakeAnalyticsPlatforms implements QuarkusTestResourceLifecycleManager {
    private static final String PORT_PROPERTY = "herald.test.fake-analytics-platforms.port";
    private WireMockServer server;

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(
                WireMockConfiguration.wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
        System.setProperty(PORT_PROPERTY, Integer.toString(server.port()));
        String url = "http://127.0.0.1:" + server.port();
        return Map.of(
                "herald.providers.facebook.api-url",
                url + "/fb/v24.0",
                "herald.providers.youtube.api-url",
                url,
                "herald.providers.tiktok.api-url",
                url + "/tiktok",
                "herald.providers.tiktok.client-id",
                "tiktok-client-key",
                "herald.providers.tiktok.client-secret",
                "tiktok-client-secret");
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
