package dev.herald.system;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The TypeScript SDK (sdk/typescript, compiled into its target/typescript by its module) against the running suite:
 * its test/suite-check.mjs creates a profile, a sandbox account and posts, pages through the posts and verifies a
 * webhook delivery it receives on 127.0.0.1, refusing a tampered body.
 */
class SdkTypeScriptIT {
    @Test
    void theTypeScriptSdkPostsPagesThroughPostsAndVerifiesAWebhook() throws Exception {
        SdkSuiteCheck.passes(
                "SDK TypeScript",
                SdkSuiteCheck.sdk("typescript").resolve("target/typescript"),
                Map.of(),
                "sdk-typescript suite check: all passed",
                "node",
                "test/suite-check.mjs");
    }
}
