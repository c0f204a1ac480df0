package dev.herald.webhooks.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The sender polls once a minute and allows 4 attempts in flight per endpoint: whatever a test sees delivered or
 * claimed within that minute came from an intake or a nudge, not from the poll.
 */
public class SlowPoll implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("herald.webhooks.poll-interval", "PT60S", "herald.webhooks.max-in-flight-per-endpoint", "4");
    }
}
