package dev.herald.local;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What {@code up} hands out once the suite is ready: printed in the foreground and written to
 * {@code .herald/credentials} (mode 600), which {@code ./herald up --detach} prints from. Nothing else logs these
 * values.
 *
 * @param providerFakesUrl the provider fakes' URL, or null when they do not run
 */
record SuiteCredentials(
        String baseUrl,
        String demoTestKey,
        String demoLiveKey,
        String adminToken,
        String dashboardSignInUrl,
        String providerFakesUrl) {

    static final String DASHBOARD_NOTE = "(one-time sign-in link for the demo workspace's owner)";

    static SuiteCredentials of(LocalSuite suite) {
        return new SuiteCredentials(
                suite.baseUrl(),
                suite.demoTestKey(),
                suite.demoLiveKey(),
                suite.adminToken(),
                suite.dashboardSignInUrl(),
                suite.config().providerFakes() ? suite.providerFakesUrl() : null);
    }

    /** The credentials file: {@code NAME=value} lines the {@code herald} script reads. */
    String fileText() {
        return "HERALD_BASE_URL=" + baseUrl + "\n"
                + "HERALD_DEMO_TEST_KEY=" + demoTestKey + "\n"
                + "HERALD_DEMO_LIVE_KEY=" + demoLiveKey + "\n"
                + "HERALD_ADMIN_TOKEN=" + adminToken + "\n"
                + "HERALD_DASHBOARD_LOGIN_URL=" + dashboardSignInUrl + "\n"
                + (providerFakesUrl != null ? "HERALD_FAKE_PROVIDERS_URL=" + providerFakesUrl + "\n" : "");
    }

    /**
     * The summary's lines from the base URL on. In the background (the {@code herald} script's {@code --detach})
     * the output goes to a log, so it names the file instead of the secrets; the script prints them from it.
     */
    void print(PrintStream out, Path file, boolean background) {
        out.println("  Base URL       " + baseUrl);
        if (background) {
            out.println("  Credentials    " + file);
        } else {
            out.println("  Test API key   " + demoTestKey);
            out.println("  Live API key   " + demoLiveKey);
            out.println("  Admin token    " + adminToken);
            out.println("  Dashboard      " + dashboardSignInUrl + "  " + DASHBOARD_NOTE);
            out.println("  Credentials    " + file + " (same values)");
        }
        if (providerFakesUrl != null) {
            out.println("  Fake providers " + providerFakesUrl + " (requests at " + providerFakesUrl
                    + "/_fakes/<platform>/requests)");
        }
    }

    /** Never prints a secret. */
    @Override
    public String toString() {
        return "SuiteCredentials[" + baseUrl + ", redacted]";
    }
}
