package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ProviderFakesTest {
    private static final List<String> PLATFORMS =
            List.of("linkedin", "facebook", "instagram", "pinterest", "tiktok", "youtube");

    /** A module's application.properties as it is checked in. */
    private static Properties properties(String module) throws IOException {
        Properties properties = new Properties();
        Path root = Path.of(System.getProperty("herald.root", "../.."));
        try (Reader reader =
                Files.newBufferedReader(root.resolve(module + "/src/main/resources/application.properties"))) {
            properties.load(reader);
        }
        return properties;
    }

    /** accounts-service must present the client the fake accepts, or every token exchange fails invalid_client. */
    @Test
    void accountsServiceGetsTheClientIdsAndSecretsTheFakeAccepts() throws IOException {
        Properties fake = properties("provider-fakes");
        Map<String, String> env = ProviderFakes.accountsEnvironment("http://127.0.0.1:8190");

        for (String platform : PLATFORMS) {
            String prefix = "HERALD_PROVIDERS_" + platform.toUpperCase() + "_";
            assertThat(env.get(prefix + "CLIENT_ID"))
                    .as(platform)
                    .isEqualTo(fake.getProperty("herald.fakes.clients." + platform + ".client-id"));
            assertThat(env.get(prefix + "CLIENT_SECRET"))
                    .as(platform)
                    .isEqualTo(fake.getProperty("herald.fakes.clients." + platform + ".client-secret"));
            assertThat(env.get(prefix + "AUTHORIZE_URL"))
                    .as(platform)
                    .startsWith("http://127.0.0.1:8190/" + platform + "/");
            assertThat(env.get(prefix + "API_URL")).as(platform).startsWith("http://127.0.0.1:8190/" + platform);
        }
    }

    @Test
    void everyLivePublisherPointsAtTheFake() {
        Map<String, String> env = ProviderFakes.deliveryEnvironment("http://127.0.0.1:8190");

        assertThat(env)
                .containsEntry("HERALD_PUBLISHERS_LINKEDIN_API_URL", "http://127.0.0.1:8190/linkedin")
                .containsEntry("HERALD_PUBLISHERS_FACEBOOK_API_URL", "http://127.0.0.1:8190/facebook/v24.0")
                .containsEntry(
                        "HERALD_PUBLISHERS_FACEBOOK_UPLOAD_URL", "http://127.0.0.1:8190/facebook/video-upload/v24.0")
                .containsEntry("HERALD_PUBLISHERS_INSTAGRAM_API_URL", "http://127.0.0.1:8190/instagram/v24.0")
                .containsEntry("HERALD_PUBLISHERS_PINTEREST_API_URL", "http://127.0.0.1:8190/pinterest")
                .containsEntry("HERALD_PUBLISHERS_YOUTUBE_UPLOAD_URL", "http://127.0.0.1:8190/youtube")
                .containsEntry("HERALD_PUBLISHERS_TIKTOK_API_URL", "http://127.0.0.1:8190/tiktok");
    }

    /** The analytics and comment readers' hosts, each a property posts-service really has. */
    @Test
    void everyLiveReaderOfPostsServicePointsAtTheFake() throws IOException {
        Properties posts = properties("posts-service");
        Map<String, String> env = ProviderFakes.postsEnvironment("http://127.0.0.1:8190");

        assertThat(env)
                .containsExactly(
                        Map.entry("HERALD_COMMENTS_FACEBOOK_API_URL", "http://127.0.0.1:8190/facebook/v24.0"),
                        Map.entry("HERALD_COMMENTS_INSTAGRAM_API_URL", "http://127.0.0.1:8190/instagram/v24.0"),
                        Map.entry("HERALD_COMMENTS_YOUTUBE_API_URL", "http://127.0.0.1:8190/youtube"),
                        Map.entry("HERALD_COMMENTS_LINKEDIN_API_URL", "http://127.0.0.1:8190/linkedin"),
                        Map.entry("HERALD_ANALYTICS_PINTEREST_API_URL", "http://127.0.0.1:8190/pinterest"));
        env.keySet()
                .forEach(variable -> assertThat(posts.getProperty(
                                variable.toLowerCase().replace('_', '.').replace(".api.url", "-api-url")))
                        .as(variable)
                        .isNotBlank());
    }
}
