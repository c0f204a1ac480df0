package dev.herald.common.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ApiExceptionTest {
    private static List<FieldError> errors(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> new FieldError("f" + i, "unknown_field", "f" + i + " is not a field."))
                .toList();
    }

    @Test
    void everyFailingFieldIsListedUpToAHundred() {
        ApiException refusal = ApiException.validationFailed(errors(100));
        assertThat((List<?>) refusal.details().get("errors")).hasSize(100);
        assertThat(refusal.details()).doesNotContainKey("omitted_errors");
        assertThat(refusal.getMessage()).isEqualTo("The request has 100 invalid fields.");
    }

    @Test
    void beyondAHundredTheRestAreCountedSoTheAnswerStaysSmall() {
        ApiException refusal = ApiException.validationFailed(errors(75_000));
        assertThat((List<?>) refusal.details().get("errors"))
                .hasSize(100)
                .first()
                .extracting("field")
                .isEqualTo("f0");
        assertThat(refusal.details()).containsEntry("omitted_errors", 74_900);
        assertThat(refusal.getMessage()).isEqualTo("The request has 75000 invalid fields; the first 100 are listed.");
    }
}
