package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ListenOptionsTest {
    private static final Map<String, String> LOCAL = Map.of(
            "HERALD_BASE_URL", "http://127.0.0.1:8080/api/v1",
            "HERALD_DEMO_TEST_KEY", "sk_test_local",
            "HERALD_DEMO_LIVE_KEY", "sk_live_local");

    @Test
    void withoutUrlAndKeyTheLocalSuitesTestModeAndEveryEventAreUsed() {
        ListenOptions options =
                ListenOptions.parse(List.of("--forward-to", "http://localhost:3000/webhooks"), Map.of(), LOCAL);
        assertThat(options.apiBase()).isEqualTo("http://127.0.0.1:8080/api/v1");
        assertThat(options.key()).isEqualTo("sk_test_local");
        assertThat(options.mode()).isEqualTo("test");
        assertThat(options.events()).isEqualTo(ListenOptions.ALL_EVENTS).hasSize(8);
    }

    @Test
    void liveModeTakesTheLiveDemoKey() {
        ListenOptions options = ListenOptions.parse(
                List.of("--forward-to", "http://localhost:3000/webhooks", "--mode", "live"), Map.of(), LOCAL);
        assertThat(options.key()).isEqualTo("sk_live_local");
        assertThat(options.mode()).isEqualTo("live");
    }

    @Test
    void aRemoteHeraldIsNamedByItsAddressAndAKeyWhoseModeDecides() {
        ListenOptions options = ListenOptions.parse(
                List.of(
                        "--forward-to", "http://localhost:3000/webhooks",
                        "--url", "https://herald.example.com/",
                        "--events", "post.failed, post.published,post.failed"),
                Map.of("HERALD_API_KEY", "sk_live_remote"),
                Map.of());
        assertThat(options.apiBase()).isEqualTo("https://herald.example.com/api/v1");
        assertThat(options.key()).isEqualTo("sk_live_remote");
        assertThat(options.mode()).isEqualTo("live");
        assertThat(options.events()).containsExactly("post.failed", "post.published");
    }

    @Test
    void mistakesAreRefusedWithWhatToDo() {
        assertThatThrownBy(() -> ListenOptions.parse(List.of(), Map.of(), LOCAL))
                .hasMessageStartingWith("--forward-to is required");
        assertThatThrownBy(() -> ListenOptions.parse(List.of("--forward-to", "localhost:3000"), Map.of(), LOCAL))
                .hasMessageContaining("http or https URL");
        assertThatThrownBy(() -> ListenOptions.parse(
                        List.of("--forward-to", "http://localhost:3000", "--mode", "live", "--key", "sk_test_x"),
                        Map.of(),
                        LOCAL))
                .hasMessageContaining("give a live key");
        assertThatThrownBy(() -> ListenOptions.parse(
                        List.of("--forward-to", "http://localhost:3000", "--events", "post.created"), Map.of(), LOCAL))
                .hasMessageContaining("post.created is not one of");
        assertThatThrownBy(
                        () -> ListenOptions.parse(List.of("--forward-to", "http://localhost:3000"), Map.of(), Map.of()))
                .hasMessageContaining("no API key");
        assertThatThrownBy(() -> ListenOptions.parse(List.of("--forward-to"), Map.of(), LOCAL))
                .hasMessageContaining("needs a value");
    }
}
