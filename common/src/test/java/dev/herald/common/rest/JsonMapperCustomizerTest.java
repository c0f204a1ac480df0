package dev.herald.common.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.api.ListMeta;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.ProfileEvent;
import dev.herald.common.wire.Profile;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonMapperCustomizerTest {
    private final ObjectMapper mapper = JsonMapperCustomizer.configure(new ObjectMapper());

    @Test
    void writesSnakeCaseFieldsAndRfc3339Times() throws Exception {
        Instant at = Instant.parse("2026-11-22T10:15:30.123456Z");
        Profile profile = new Profile("prf_1", "Acme", null, Mode.TEST, at, at);
        JsonNode event = mapper.readTree(mapper.writeValueAsString(
                new ProfileEvent("evt_1", ProfileEvent.CREATED, at, "ws_1", Mode.TEST, profile)));

        assertThat(event.get("event_id").asText()).isEqualTo("evt_1");
        assertThat(event.get("type").asText()).isEqualTo("profile.created");
        assertThat(event.get("occurred_at").asText()).isEqualTo("2026-11-22T10:15:30.123456Z");
        assertThat(event.get("mode").asText()).isEqualTo("test");
        assertThat(event.get("profile").has("external_id")).isTrue();
        assertThat(event.get("profile").get("external_id").isNull()).isTrue();
    }

    @Test
    void listMetaAlwaysCarriesNextCursorEvenWhenNull() throws Exception {
        JsonNode list =
                mapper.readTree(mapper.writeValueAsString(new ListEnvelope<>(List.of(), new ListMeta(null, false))));
        assertThat(list.get("meta").has("next_cursor")).isTrue();
        assertThat(list.get("meta").get("has_more").asBoolean()).isFalse();
    }

    @Test
    void refusesDeeplyNestedInput() {
        String deep = "[".repeat(JsonMapperCustomizer.MAX_NESTING_DEPTH + 1)
                + "]".repeat(JsonMapperCustomizer.MAX_NESTING_DEPTH + 1);
        assertThatThrownBy(() -> mapper.readTree(deep)).isInstanceOf(StreamConstraintsException.class);
    }
}
