package dev.herald.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code provider-fakes} module next to the suite ({@code ./herald up --fake-providers}): how it is run, and the
 * settings that point accounts-service's OAuth clients and delivery-worker's publishers at it, so that live mode works
 * end to end on one machine. The client ids and secrets are the fake's defaults (its application.properties).
 */
public final class ProviderFakes {
    public static final String MODULE = "provider-fakes";
    public static final int DEFAULT_PORT = 8190;
    private static final List<String> PLATFORMS =
            List.of("linkedin", "facebook", "instagram", "pinterest", "tiktok", "youtube");

    private ProviderFakes() {}

    public static Path jar(Path projectRoot) {
        return projectRoot.resolve(MODULE).resolve("target/quarkus-app/quarkus-run.jar");
    }

    /** The fake's command line; it keeps a few thousand small requests in memory, so a small heap does. */
    public static List<String> commandLine(Path projectRoot) {
        return JavaCommand.with(
                "-Xms32m",
                "-Xmx128m",
                "-XX:+UseSerialGC",
                "-jar",
                jar(projectRoot).toString());
    }

    public static Optional<String> unavailableReason(Path projectRoot) {
        Path jar = jar(projectRoot);
        return Files.isRegularFile(jar)
                ? Optional.empty()
                : Optional.of(jar + " does not exist; build it with ./mvnw -DskipTests install");
    }

    /** accounts-service's {@code herald.providers.*} (ProvidersConfig), every platform pointed at the fake. */
    public static Map<String, String> accountsEnvironment(String fakeUrl) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String platform : PLATFORMS) {
            String prefix = "HERALD_PROVIDERS_" + platform.toUpperCase() + "_";
            env.put(prefix + "CLIENT_ID", "herald-fake-" + platform + "-client");
            env.put(prefix + "CLIENT_SECRET", "herald-fake-" + platform + "-secret");
        }
        env.put("HERALD_PROVIDERS_LINKEDIN_AUTHORIZE_URL", fakeUrl + "/linkedin/oauth/v2/authorization");
        env.put("HERALD_PROVIDERS_LINKEDIN_OAUTH_URL", fakeUrl + "/linkedin/oauth/v2");
        env.put("HERALD_PROVIDERS_LINKEDIN_API_URL", fakeUrl + "/linkedin");
        env.put("HERALD_PROVIDERS_FACEBOOK_AUTHORIZE_URL", fakeUrl + "/facebook/v24.0/dialog/oauth");
        env.put("HERALD_PROVIDERS_FACEBOOK_API_URL", fakeUrl + "/facebook/v24.0");
        env.put("HERALD_PROVIDERS_INSTAGRAM_AUTHORIZE_URL", fakeUrl + "/instagram/oauth/authorize");
        env.put("HERALD_PROVIDERS_INSTAGRAM_OAUTH_URL", fakeUrl + "/instagram");
        env.put("HERALD_PROVIDERS_INSTAGRAM_API_URL", fakeUrl + "/instagram");
        env.put("HERALD_PROVIDERS_PINTEREST_AUTHORIZE_URL", fakeUrl + "/pinterest/oauth/");
        env.put("HERALD_PROVIDERS_PINTEREST_API_URL", fakeUrl + "/pinterest");
        env.put("HERALD_PROVIDERS_PINTEREST_SANDBOX_API_URL", fakeUrl + "/pinterest");
        env.put("HERALD_PROVIDERS_TIKTOK_AUTHORIZE_URL", fakeUrl + "/tiktok/v2/auth/authorize/");
        env.put("HERALD_PROVIDERS_TIKTOK_API_URL", fakeUrl + "/tiktok");
        env.put("HERALD_PROVIDERS_YOUTUBE_AUTHORIZE_URL", fakeUrl + "/youtube/o/oauth2/v2/auth");
        env.put("HERALD_PROVIDERS_YOUTUBE_OAUTH_URL", fakeUrl + "/youtube/oauth2");
        env.put("HERALD_PROVIDERS_YOUTUBE_API_URL", fakeUrl + "/youtube");
        return env;
    }

    /**
     * posts-service's platform hosts: the comment readers' {@code herald.comments.*} (which the analytics readers share)
     * and Pinterest's {@code herald.analytics.pinterest-api-url}, so live analytics and comments read the fakes.
     */
    public static Map<String, String> postsEnvironment(String fakeUrl) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HERALD_COMMENTS_FACEBOOK_API_URL", fakeUrl + "/facebook/v24.0");
        env.put("HERALD_COMMENTS_INSTAGRAM_API_URL", fakeUrl + "/instagram/v24.0");
        env.put("HERALD_COMMENTS_YOUTUBE_API_URL", fakeUrl + "/youtube");
        env.put("HERALD_COMMENTS_LINKEDIN_API_URL", fakeUrl + "/linkedin");
        env.put("HERALD_ANALYTICS_PINTEREST_API_URL", fakeUrl + "/pinterest");
        return env;
    }

    /** delivery-worker's {@code herald.publishers.*}: the publishers' API hosts. */
    public static Map<String, String> deliveryEnvironment(String fakeUrl) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HERALD_PUBLISHERS_LINKEDIN_API_URL", fakeUrl + "/linkedin");
        env.put("HERALD_PUBLISHERS_FACEBOOK_API_URL", fakeUrl + "/facebook/v24.0");
        env.put("HERALD_PUBLISHERS_FACEBOOK_UPLOAD_URL", fakeUrl + "/facebook/video-upload/v24.0");
        env.put("HERALD_PUBLISHERS_INSTAGRAM_API_URL", fakeUrl + "/instagram/v24.0");
        env.put("HERALD_PUBLISHERS_PINTEREST_API_URL", fakeUrl + "/pinterest");
        env.put("HERALD_PUBLISHERS_PINTEREST_SANDBOX_API_URL", fakeUrl + "/pinterest");
        env.put("HERALD_PUBLISHERS_YOUTUBE_API_URL", fakeUrl + "/youtube");
        env.put("HERALD_PUBLISHERS_YOUTUBE_UPLOAD_URL", fakeUrl + "/youtube");
        env.put("HERALD_PUBLISHERS_TIKTOK_API_URL", fakeUrl + "/tiktok");
        return env;
    }
}
