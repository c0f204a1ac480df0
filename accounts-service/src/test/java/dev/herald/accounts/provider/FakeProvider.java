package dev.herald.accounts.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.http.ProviderHttpClient;
import dev.herald.common.net.PlatformAnswerLimit;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A local fake of a provider's HTTP endpoints (WireMock) and a real Vert.x web client pointed at it, so provider
 * code runs exactly as in production, only against another host. Register as a static {@code @RegisterExtension}.
 */
public class FakeProvider implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {
    public static final String CLIENT_ID = "client-123";
    public static final String CLIENT_SECRET = "secret-456";

    private WireMockServer server;
    private Vertx vertx;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = new WireMockServer(
                WireMockConfiguration.wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
        vertx = Vertx.vertx();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.stop();
        vertx.closeAndAwait();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        server.resetAll();
    }

    public WireMockServer server() {
        return server;
    }

    public String url() {
        return server.baseUrl();
    }

    /** Every platform configured with the test client and every URL on the fake, then {@code overrides}. */
    public ProvidersConfig config(Map<String, String> overrides) {
        Map<String, String> properties = new HashMap<>();
        // Generous: the first call of a JVM warms WireMock and Vert.x on a shared, busy machine.
        properties.put("herald.providers.request-timeout", "30s");
        for (String platform : new String[] {"tiktok", "youtube", "facebook", "instagram", "pinterest", "linkedin"}) {
            String prefix = "herald.providers." + platform + ".";
            properties.put(prefix + "client-id", CLIENT_ID);
            properties.put(prefix + "client-secret", CLIENT_SECRET);
            properties.put(prefix + "authorize-url", url() + "/" + platform + "/authorize");
            properties.put(prefix + "api-url", url());
        }
        for (String platform : new String[] {"youtube", "instagram", "linkedin"}) {
            properties.put("herald.providers." + platform + ".oauth-url", url() + "/oauth");
        }
        properties.put("herald.providers.pinterest.sandbox-api-url", url() + "/sandbox");
        properties.putAll(overrides);
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(ProvidersConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new PropertiesConfigSource(properties, "fake-provider", 500))
                .build();
        return config.getConfigMapping(ProvidersConfig.class);
    }

    public ProvidersConfig config() {
        return config(Map.of());
    }

    /** Nothing configured but the URLs, as in local and test runs. */
    public ProvidersConfig unconfigured() {
        Map<String, String> blank = new HashMap<>();
        for (String platform : new String[] {"tiktok", "youtube", "facebook", "instagram", "pinterest", "linkedin"}) {
            blank.put("herald.providers." + platform + ".client-id", "");
            blank.put("herald.providers." + platform + ".client-secret", "");
        }
        return config(blank);
    }

    public ProviderHttpClient http(ProvidersConfig config) {
        return new ProviderHttpClient(vertx, config, PlatformAnswerLimit.DEFAULT_MAX_BYTES);
    }

    public static <T> T await(Uni<T> uni) {
        return uni.await().atMost(Duration.ofSeconds(60));
    }

    public static ProviderException failure(Uni<?> uni) {
        ProviderException failure = catchThrowableOfType(ProviderException.class, () -> await(uni));
        assertThat(failure).as("the call should fail with a ProviderException").isNotNull();
        return failure;
    }

    public static Map<String, String> query(URI uri) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String pair : uri.getRawQuery().split("&")) {
            int equals = pair.indexOf('=');
            parameters.put(
                    URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
        return parameters;
    }

    public static URI redirect() {
        return URI.create("https://herald.example/connect/callback");
    }
}
