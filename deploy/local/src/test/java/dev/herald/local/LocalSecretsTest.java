package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.common.auth.RsaKeys;
import dev.herald.common.crypto.SecretCipher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSecretsTest {
    @TempDir
    Path state;

    @Test
    void secretsAreGeneratedOnceAndReusedOnTheNextStart() throws Exception {
        Path file = state.resolve("secrets.properties");

        LocalSecrets first = LocalSecrets.loadOrGenerate(file);
        LocalSecrets second = LocalSecrets.loadOrGenerate(file);

        assertThat(second)
                .usingRecursiveComparison()
                .ignoringFields("dashboardSignInToken")
                .isEqualTo(first);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(first.demoTestKey()).matches("sk_test_[0-9A-Za-z]{32}");
        assertThat(first.demoLiveKey()).matches("sk_live_[0-9A-Za-z]{32}");
        assertThat(first.adminToken()).matches("hat_[0-9A-Za-z]{32}");
        assertThat(Base64.getDecoder().decode(first.cursorSecret())).hasSize(32);
        assertThat(SecretCipher.SecretKey.parse(first.secretCipherKey()).id()).isEqualTo("local1");
        assertThat(RsaKeys.readJwks(first.internalJwtVerifyKeys())).containsOnlyKeys("local1");
        assertThat(first.internalJwtSigningKeyId()).isEqualTo("local1");
        assertThat(RsaKeys.readPrivateKey(first.internalJwtPrivateKey()).getAlgorithm())
                .isEqualTo("RSA");
    }

    @Test
    void everyStartMakesANewUnstoredDashboardSignInToken() throws Exception {
        Path file = state.resolve("secrets.properties");

        LocalSecrets first = LocalSecrets.loadOrGenerate(file);
        LocalSecrets second = LocalSecrets.loadOrGenerate(file);

        // 32 random bytes, base64url without padding: a path segment of the sign-in link as it is.
        assertThat(first.dashboardSignInToken()).matches("[A-Za-z0-9_-]{43}");
        assertThat(Base64.getUrlDecoder().decode(first.dashboardSignInToken())).hasSize(32);
        assertThat(second.dashboardSignInToken())
                .matches("[A-Za-z0-9_-]{43}")
                .isNotEqualTo(first.dashboardSignInToken());
        // One-time: a stored token would be handed out again after the gateway consumed it.
        assertThat(Files.readString(file)).doesNotContain(first.dashboardSignInToken(), second.dashboardSignInToken());
        assertThat(second.withOverrides(LocalSuiteConfig.builder(state).build()).dashboardSignInToken())
                .isEqualTo(second.dashboardSignInToken());
    }

    @Test
    void twoSuitesOfTheirOwnGetDifferentSecrets() throws Exception {
        LocalSecrets one = LocalSecrets.loadOrGenerate(state.resolve("one/secrets.properties"));
        LocalSecrets other = LocalSecrets.loadOrGenerate(state.resolve("other/secrets.properties"));

        assertThat(other.demoTestKey()).isNotEqualTo(one.demoTestKey());
        assertThat(other.internalJwtPrivateKey()).isNotEqualTo(one.internalJwtPrivateKey());
    }

    @Test
    void configuredCredentialsWinAndTheStoredOnesStayStored() throws Exception {
        Path file = state.resolve("secrets.properties");
        LocalSecrets generated = LocalSecrets.loadOrGenerate(file);
        LocalSuiteConfig config = LocalSuiteConfig.builder(state)
                .demoTestKey("sk_test_fixedfixedfixed")
                .demoLiveKey("sk_live_fixedfixedfixed")
                .adminToken("hat_fixed")
                .build();

        LocalSecrets effective = LocalSecrets.loadOrGenerate(file).withOverrides(config);

        assertThat(effective.demoTestKey()).isEqualTo("sk_test_fixedfixedfixed");
        assertThat(effective.demoLiveKey()).isEqualTo("sk_live_fixedfixedfixed");
        assertThat(effective.adminToken()).isEqualTo("hat_fixed");
        assertThat(effective.internalJwtPrivateKey()).isEqualTo(generated.internalJwtPrivateKey());
        assertThat(LocalSecrets.loadOrGenerate(file).demoTestKey()).isEqualTo(generated.demoTestKey());
    }

    @Test
    void aSecretsFileReadableByOthersIsTightenedToItsOwner() throws Exception {
        Path file = state.resolve("secrets.properties");
        LocalSecrets.loadOrGenerate(file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        LocalSecrets.loadOrGenerate(file);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
    }

    @Test
    void secretsNeverShowInToString() throws Exception {
        LocalSecrets secrets = LocalSecrets.loadOrGenerate(state.resolve("secrets.properties"));

        assertThat(secrets.toString())
                .doesNotContain(
                        secrets.demoTestKey(),
                        secrets.adminToken(),
                        secrets.cursorSecret(),
                        secrets.secretCipherKey(),
                        secrets.dashboardSignInToken());
    }

    @Test
    void aSecretsFileFromBeforeTheCipherKeyGainsOneAndKeepsTheRest() throws Exception {
        Path file = state.resolve("secrets.properties");
        LocalSecrets first = LocalSecrets.loadOrGenerate(file);
        java.util.List<String> lines = Files.readAllLines(file);
        Files.write(
                file,
                lines.stream()
                        .filter(line -> !line.startsWith("secret-cipher-key"))
                        .toList());

        LocalSecrets upgraded = LocalSecrets.loadOrGenerate(file);

        assertThat(upgraded.secretCipherKey()).isNotBlank().isNotEqualTo(first.secretCipherKey());
        assertThat(upgraded.demoTestKey()).isEqualTo(first.demoTestKey());
        assertThat(LocalSecrets.loadOrGenerate(file).secretCipherKey()).isEqualTo(upgraded.secretCipherKey());
    }

    @Test
    void aSecretsFileFromBeforeKeyIdsKeepsItsKeyPairUnderTheFirstId() throws Exception {
        Path file = state.resolve("secrets.properties");
        java.security.KeyPair keys = RsaKeys.generate();
        java.util.Properties old = new java.util.Properties();
        old.setProperty("internal-jwt.public-key", RsaKeys.publicKeyPem(keys.getPublic()));
        old.setProperty("internal-jwt.private-key", RsaKeys.privateKeyPem(keys.getPrivate()));
        try (java.io.Writer writer = Files.newBufferedWriter(file)) {
            old.store(writer, null);
        }

        LocalSecrets upgraded = LocalSecrets.loadOrGenerate(file);

        assertThat(RsaKeys.readJwks(upgraded.internalJwtVerifyKeys()))
                .containsOnly(java.util.Map.entry("local1", keys.getPublic()));
        assertThat(upgraded.internalJwtSigningKeyId()).isEqualTo("local1");
        assertThat(upgraded.internalJwtPrivateKey()).isEqualTo(RsaKeys.privateKeyPem(keys.getPrivate()));
        assertThat(Files.readString(file)).doesNotContain("internal-jwt.public-key");
    }

    @Test
    void anUnusableCipherKeyIsReportedNotReplaced() throws Exception {
        Path file = state.resolve("secrets.properties");
        LocalSecrets.loadOrGenerate(file);
        java.util.List<String> lines = Files.readAllLines(file).stream()
                .map(line -> line.startsWith("secret-cipher-key") ? "secret-cipher-key=local1\\:c2hvcnQ\\=" : line)
                .toList();
        Files.write(file, lines);

        assertThatThrownBy(() -> LocalSecrets.loadOrGenerate(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("unusable secret-cipher-key")
                .hasMessageContaining("exactly 32 bytes");
    }
}
