package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.RsaKeys;
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

        assertThat(second).usingRecursiveComparison().isEqualTo(first);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(first.demoTestKey()).matches("sk_test_[0-9A-Za-z]{32}");
        assertThat(first.demoLiveKey()).matches("sk_live_[0-9A-Za-z]{32}");
        assertThat(first.adminToken()).matches("hat_[0-9A-Za-z]{32}");
        assertThat(Base64.getDecoder().decode(first.cursorSecret())).hasSize(32);
        assertThat(RsaKeys.readPublicKey(first.internalJwtPublicKey()).getAlgorithm()).isEqualTo("RSA");
        assertThat(RsaKeys.readPrivateKey(first.internalJwtPrivateKey()).getAlgorithm()).isEqualTo("RSA");
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
        LocalSuiteConfig config = LocalSuiteConfig.builder(state).demoTestKey("sk_test_fixedfixedfixed")
                .demoLiveKey("sk_live_fixedfixedfixed").adminToken("hat_fixed").build();

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

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void secretsNeverShowInToString() throws Exception {
        LocalSecrets secrets = LocalSecrets.loadOrGenerate(state.resolve("secrets.properties"));

        assertThat(secrets.toString()).doesNotContain(secrets.demoTestKey(), secrets.adminToken(), secrets.cursorSecret());
    }
}
