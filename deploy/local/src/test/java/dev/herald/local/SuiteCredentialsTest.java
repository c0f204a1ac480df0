package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SuiteCredentialsTest {
    private static final String SIGN_IN_URL =
            "http://127.0.0.1:8080/dashboard/sign-in/q2Yk0fW3vX9_a-Lm4nOp5rSt6uVw7xYz8AbCdEfGhIj";
    private static final Path FILE = Path.of("/work/.herald/credentials");

    private final SuiteCredentials credentials =
            new SuiteCredentials("http://127.0.0.1:8080/api/v1", "sk_test_t", "sk_live_l", "hat_a", SIGN_IN_URL, null);

    @Test
    void theCredentialsFileCarriesTheDashboardSignInLink() {
        assertThat(credentials.fileText()).isEqualTo("""
                        HERALD_BASE_URL=http://127.0.0.1:8080/api/v1
                        HERALD_DEMO_TEST_KEY=sk_test_t
                        HERALD_DEMO_LIVE_KEY=sk_live_l
                        HERALD_ADMIN_TOKEN=hat_a
                        HERALD_DASHBOARD_LOGIN_URL=%s
                        """.formatted(SIGN_IN_URL));
        assertThat(withFakes().fileText()).endsWith("HERALD_FAKE_PROVIDERS_URL=http://127.0.0.1:8190\n");
    }

    @Test
    void theForegroundSummaryPrintsTheDashboardSignInLink() {
        assertThat(printed(credentials, false))
                .contains("  Admin token    hat_a\n")
                .contains("  Dashboard      " + SIGN_IN_URL
                        + "  (one-time sign-in link for the demo workspace's owner)\n")
                .contains("  Credentials    " + FILE + " (same values)\n")
                .doesNotContain("Fake providers");
        assertThat(printed(withFakes(), false)).contains("  Fake providers http://127.0.0.1:8190 (requests at");
    }

    @Test
    void theBackgroundSummaryGoesToALogAndNamesOnlyTheFile() {
        String printed = printed(credentials, true);

        assertThat(printed).contains("  Credentials    " + FILE + "\n");
        assertThat(printed).doesNotContain(SIGN_IN_URL, "sk_test_t", "sk_live_l", "hat_a");
        assertThat(credentials.toString()).doesNotContain(SIGN_IN_URL, "sk_test_t", "hat_a");
    }

    private SuiteCredentials withFakes() {
        return new SuiteCredentials(
                "http://127.0.0.1:8080/api/v1",
                "sk_test_t",
                "sk_live_l",
                "hat_a",
                SIGN_IN_URL,
                "http://127.0.0.1:8190");
    }

    private static String printed(SuiteCredentials credentials, boolean background) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        credentials.print(new PrintStream(out, true, StandardCharsets.UTF_8), FILE, background);
        return out.toString(StandardCharsets.UTF_8);
    }
}
