package dev.herald.posts.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.herald.common.api.FieldError;
import dev.herald.common.wire.PostSeries;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepeatRulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-11-28T04:00:00Z");

    private final List<FieldError> errors = new ArrayList<>();

    private PostSeries.Repeat read(String json) throws Exception {
        return RepeatRules.read(JSON.readTree(json), null, errors);
    }

    private List<String> fields() {
        return errors.stream().map(e -> e.field() + ":" + e.code()).toList();
    }

    @Test
    void aWeeklyCountedRepeatIsReadWithTheZoneDefaultedToUtc() throws Exception {
        assertThat(read("{\"every\":\"P7D\",\"count\":4}")).isEqualTo(new PostSeries.Repeat("P7D", null, 4, "UTC"));
        assertThat(read("{\"every\":\"P1M\",\"until\":\"2027-06-30T23:59:59Z\",\"timezone\":\"Europe/Berlin\"}"))
                .isEqualTo(new PostSeries.Repeat("P1M", Instant.parse("2027-06-30T23:59:59Z"), null, "Europe/Berlin"));
        assertThat(errors).isEmpty();
    }

    @Test
    void eachProblemIsNamedByItsField() throws Exception {
        assertThat(read("{\"every\":\"PT1H\",\"count\":1,\"timezone\":\"+02:00\",\"often\":true}"))
                .isNull();
        assertThat(fields())
                .containsExactlyInAnyOrder(
                        "repeat.often:unknown_field",
                        "repeat.every:invalid_format",
                        "repeat.count:invalid_value",
                        "repeat.timezone:invalid_value");
    }

    @Test
    void everyIsRequiredAndBoundedAndCountIsAnInteger() throws Exception {
        read("{\"count\":\"3\"}");
        read("{\"every\":\"P2Y\",\"count\":367}");
        read("{\"every\":7,\"until\":\"tomorrow\"}");
        assertThat(fields())
                .containsExactly(
                        "repeat.every:required",
                        "repeat.count:invalid_type",
                        "repeat.every:invalid_value",
                        "repeat.count:invalid_value",
                        "repeat.every:invalid_type",
                        "repeat.until:invalid_format");
    }

    @Test
    void exactlyOneOfUntilAndCountEndsTheSeries() throws Exception {
        read("{\"every\":\"P1D\"}");
        read("{\"every\":\"P1D\",\"count\":2,\"until\":\"2027-01-01T00:00:00Z\"}");
        assertThat(fields()).containsExactly("repeat:required", "repeat:invalid_value");
    }

    @Test
    void repeatIsAnObjectAndIsNotCombinedWithNextSlotYet() throws Exception {
        RepeatRules.read(JSON.readTree("\"P7D\""), null, errors);
        RepeatRules.read(JSON.readTree("{\"every\":\"P7D\",\"count\":2}"), TextNode.valueOf("next_slot"), errors);
        assertThat(fields()).containsExactly("repeat:invalid_type", "repeat:not_supported");
        JsonNode absent = null;
        assertThat(RepeatRules.read(absent, null, errors)).isNull();
    }

    @Test
    void untilComesAfterTheFirstPostAndAtMostTwoYearsAhead() {
        Instant first = NOW.plusSeconds(3600);
        assertThat(RepeatRules.check(new PostSeries.Repeat("P1D", first, null, "UTC"), first, NOW))
                .extracting(FieldError::field, FieldError::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("repeat.until", "invalid_value"));
        assertThat(RepeatRules.check(
                        new PostSeries.Repeat("P1D", Instant.parse("2028-11-28T04:00:01Z"), null, "UTC"), first, NOW))
                .hasSize(1);
        assertThat(RepeatRules.check(
                        new PostSeries.Repeat("P1D", Instant.parse("2028-11-28T04:00:00Z"), null, "UTC"), first, NOW))
                .isEmpty();
        assertThat(RepeatRules.check(new PostSeries.Repeat("P1D", null, 5, "UTC"), first, NOW))
                .isEmpty();
    }
}
