package dev.herald.system;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Python SDK (sdk/python, built into its target/python by its module) against the running suite: its
 * tests/suite_check.py creates a profile, a sandbox account and posts, pages through the posts and verifies a webhook
 * delivery it receives on 127.0.0.1, refusing a tampered body.
 */
class SdkPythonIT {
    @Test
    void thePythonSdkPostsPagesThroughPostsAndVerifiesAWebhook() throws Exception {
        SdkSuiteCheck.passes(
                "SDK Python",
                SdkSuiteCheck.sdk("python"),
                Map.of(
                        "PYTHONPATH",
                        SdkSuiteCheck.sdk("python").resolve("target/python").toString(),
                        "PYTHONDONTWRITEBYTECODE",
                        "1"),
                "sdk-python suite check: all passed",
                "python3",
                "tests/suite_check.py");
    }
}
