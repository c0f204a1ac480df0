package dev.herald.gateway.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.gateway.model.ApiKey;
import dev.herald.gateway.repository.ApiKeyRepository;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * OWASP API2:2023: a credential the caller presents is never compared as text, where the time an equality check
 * takes tells how many leading characters were right. API keys (and OAuth client secrets) are looked up or compared
 * by their SHA-256; the admin token and client secrets are compared with {@code MessageDigest.isEqual}. A timing
 * measurement over HTTP would be flaky, so the code paths themselves are pinned here.
 */
class TimingSafeComparisonTest {
    private static final Path MAIN = Path.of("src/main/java/dev/herald/gateway");
    /** {@code x.equals(y)} where either side names a secret, token, hash, signature or password. */
    private static final Pattern TEXT_COMPARISON = Pattern.compile(
            "(?i)(secret|token|hash|signature|password)\\w*(\\(\\))?\\s*\\.\\s*(equals|equalsIgnoreCase|contentEquals|compareTo)\\s*\\("
                    + "|\\.(equals|equalsIgnoreCase|contentEquals)\\s*\\(\\s*[\\w.()]*(secret|token|hash|signature|password)");
    /** Comparisons of values the caller does not choose, with the reason they may be plain. */
    private static final Map<String, String> NOT_CALLER_INPUT = Map.of(
            "DemoWorkspaceSeeder.java", "compares the configured demo key's hash with the stored one at start-up");

    @Test
    void api2_anApiKeyIsLookedUpByItsSha256AndNeverByItsText() {
        List<String> lookedUp = new ArrayList<>();
        ApiKeyRepository keys = new ApiKeyRepository() {
            @Override
            public Uni<ApiKey> findBySecretHash(String secretHash) {
                lookedUp.add(secretHash);
                return Uni.createFrom().nullItem();
            }
        };
        String presented = ApiKeySecrets.generate(Mode.TEST);
        assertThat(new ApiKeyAuthenticator(keys, Clock.systemUTC())
                        .authenticate(presented)
                        .await()
                        .atMost(Duration.ofSeconds(5)))
                .isEmpty();
        assertThat(lookedUp).containsExactly(ApiKeySecrets.hash(presented));
        assertThat(lookedUp.get(0)).matches("^[0-9a-f]{64}$").doesNotContain(presented.substring(8));
    }

    @Test
    void api2_theAdminTokenAndOAuthClientSecretsAreComparedWithMessageDigestIsEqual() throws IOException {
        assertThat(withoutWhitespace(MAIN.resolve("service/AdminTokenVerifier.java")))
                .contains("MessageDigest.isEqual(sha256(presented)");
        assertThat(withoutWhitespace(MAIN.resolve("service/OAuthTokenService.java")))
                .contains("MessageDigest.isEqual(client.secretHash");
    }

    private static String withoutWhitespace(Path file) throws IOException {
        return Files.readString(file).replaceAll("\\s+", "");
    }

    @Test
    void api2_noGatewayCodeComparesASecretAsText() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file :
                    files.filter(path -> path.toString().endsWith(".java")).toList()) {
                if (NOT_CALLER_INPUT.containsKey(file.getFileName().toString())) {
                    continue;
                }
                // The whole file, not line by line: the formatter may break a comparison across lines.
                String source = Files.readString(file);
                Matcher comparison = TEXT_COMPARISON.matcher(source);
                while (comparison.find()) {
                    int line = (int) source.substring(0, comparison.start())
                                    .chars()
                                    .filter(c -> c == '\n')
                                    .count()
                            + 1;
                    found.add(file.getFileName() + ":" + line + ": "
                            + comparison.group().replaceAll("\\s+", " "));
                }
            }
        }
        assertThat(found)
                .as("secrets compared with equals (use MessageDigest.isEqual, or look up a hash)")
                .isEmpty();
        // The pattern itself catches what it is meant to.
        assertThat(TEXT_COMPARISON
                        .matcher("if (presented.equals(config.adminToken())) {")
                        .find())
                .isTrue();
        assertThat(TEXT_COMPARISON.matcher("clientSecret.equals(stored)").find())
                .isTrue();
        assertThat(TEXT_COMPARISON
                        .matcher("clientSecret\n        .equals(stored)")
                        .find())
                .isTrue();
        assertThat(TEXT_COMPARISON
                        .matcher("if (!grantType.equals(\"client_credentials\")) {")
                        .find())
                .isFalse();
    }
}
