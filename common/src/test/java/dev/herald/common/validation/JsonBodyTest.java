package dev.herald.common.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.FieldError;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JsonBodyTest {
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void distinguishesAbsentNullAndPresent() throws Exception {
        JsonBody body = JsonBody.of(mapper.readTree("{\"a\":null,\"b\":\" x \"}"), Set.of("a", "b", "c"));
        assertThat(body.string("a").nullable().read().state()).isEqualTo(FieldValue.State.NULL);
        assertThat(body.string("b").trimmed().read()).isEqualTo(FieldValue.of("x"));
        assertThat(body.string("c").read().isAbsent()).isTrue();
        body.validate();
    }

    @Test
    void collectsEveryProblemBeforeFailing() throws Exception {
        JsonBody body = JsonBody.of(
                mapper.readTree("{\"name\":5,\"tag\":\"\",\"extra\":1,\"long\":\"abcd\"}"),
                Set.of("name", "tag", "long", "missing"));
        body.string("name").required().read();
        body.string("tag").length(1, 10).read();
        body.string("long").length(1, 3).read();
        body.string("missing").required().read();
        assertThatThrownBy(body::validate).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
            @SuppressWarnings("unchecked")
            List<FieldError> errors = (List<FieldError>) e.details().get("errors");
            assertThat(errors)
                    .extracting(FieldError::field, FieldError::code)
                    .containsExactlyInAnyOrder(
                            org.assertj.core.groups.Tuple.tuple("extra", "unknown_field"),
                            org.assertj.core.groups.Tuple.tuple("name", "invalid_type"),
                            org.assertj.core.groups.Tuple.tuple("tag", "too_short"),
                            org.assertj.core.groups.Tuple.tuple("long", "too_long"),
                            org.assertj.core.groups.Tuple.tuple("missing", "required"));
        });
    }

    @Test
    void lengthCountsCharactersNotUtf16Units() throws Exception {
        JsonBody body = JsonBody.of(mapper.readTree("{\"name\":\"\uD83D\uDE00\uD83D\uDE00\"}"), Set.of("name"));
        assertThat(body.string("name").length(1, 2).read()).isEqualTo(FieldValue.of("\uD83D\uDE00\uD83D\uDE00"));
        body.validate();
    }

    @Test
    void aBodyThatIsNotAnObjectIsAnInvalidRequest() throws Exception {
        for (String json : new String[] {"[]", "\"text\"", "null", "3"}) {
            assertThatThrownBy(() -> JsonBody.of(mapper.readTree(json), Set.of()))
                    .isInstanceOfSatisfying(
                            ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST));
        }
        assertThatThrownBy(() -> JsonBody.of(null, Set.of())).isInstanceOf(ApiException.class);
    }
}
