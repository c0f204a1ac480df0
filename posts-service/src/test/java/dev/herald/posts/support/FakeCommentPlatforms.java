package dev.herald.posts.support;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * One local WireMock server standing in for the platforms' comment and analytics APIs: Graph for Facebook under
 * {@code /fb/v24.0}, Instagram's under {@code /ig/v24.0}, YouTube's {@code /youtube/v3}, LinkedIn's {@code /rest} and
 * Pinterest's {@code /v5} and TikTok's {@code /v2}. Tests stub and
 * verify through {@link #client()}, WireMock's admin API over HTTP, whatever class loader started the server.
 */
public class FakeCommentPlatforms implements QuarkusTestResourceLifecycleManager {
    private static final String PORT_PROPERTY = "herald.test.fake-comment-platforms.port";
    private WireMockServer server;

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(
                WireMockConfiguration.wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
        System.setProperty(PORT_PROPERTY, Integer.toString(server.port()));
        String url = "http://127.0.0.1:" + server.port();
        return Map.of(
                "herald.comments.facebook-api-url",
                url + "/fb/v24.0",
                "herald.comments.instagram-api-url",
                url + "/ig/v24.0",
                "herald.comments.youtube-api-url",
                url,
                "herald.comments.linkedin-api-url",
                url,
                "herald.analytics.pinterest-api-url",
                url,
                "herald.analytics.tiktok-api-url",
                url);
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
