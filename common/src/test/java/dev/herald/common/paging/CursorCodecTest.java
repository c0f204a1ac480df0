package dev.herald.common.paging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CursorCodecTest {
    private final CursorCodec codec = new CursorCodec("0123456789abcdef0123".getBytes(StandardCharsets.UTF_8));
    private final CursorScope scope = CursorScope.of("profiles", "ws_1", Mode.TEST, Map.of("q", "acme"));
    private final CursorPosition position = new CursorPosition(Instant.parse("2026-11-22T10:00:00.123456Z"), "prf_abc");

    @Test
    void decodesWhatItEncodedUnderTheSameScope() {
        assertThat(codec.decode(scope, codec.encode(scope, position))).isEqualTo(position);
    }

    @Test
    void rejectsTheCursorUnderAnyOtherScope() {
        String cursor = codec.encode(scope, position);
        for (CursorScope other : new CursorScope[] {
            CursorScope.of("accounts", "ws_1", Mode.TEST, Map.of("q", "acme")),
            CursorScope.of("profiles", "ws_2", Mode.TEST, Map.of("q", "acme")),
            CursorScope.of("profiles", "ws_1", Mode.LIVE, Map.of("q", "acme")),
            CursorScope.of("profiles", "ws_1", Mode.TEST, Map.of("q", "acm")),
            CursorScope.of("profiles", "ws_1", Mode.TEST, Map.of()),
            new CursorScope("profiles", "ws_1", Mode.TEST, "acc_1", Map.of("q", "acme"))
        }) {
            assertInvalid(() -> codec.decode(other, cursor));
        }
    }

    @Test
    void absentFiltersAndNullFiltersAreTheSameScope() {
        java.util.HashMap<String, String> withNull = new java.util.HashMap<>();
        withNull.put("q", "acme");
        withNull.put("external_id", null);
        String cursor = codec.encode(scope, position);
        assertThat(codec.decode(CursorScope.of("profiles", "ws_1", Mode.TEST, withNull), cursor))
                .isEqualTo(position);
    }

    @Test
    void rejectsTamperedOrMalformedCursors() {
        String cursor = codec.encode(scope, position);
        String forgedPayload = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("2020-01-01T00:00:00Z|prf_zzz".getBytes(StandardCharsets.UTF_8));
        assertInvalid(() -> codec.decode(scope, forgedPayload + cursor.substring(cursor.indexOf('.'))));
        assertInvalid(() -> codec.decode(scope, cursor.substring(0, cursor.length() - 1)));
        assertInvalid(() -> codec.decode(scope, "not a cursor"));
        assertInvalid(() -> codec.decode(scope, "a.b.c"));
        assertInvalid(() -> codec.decode(scope, ""));
        assertInvalid(() -> codec.decode(scope, "x".repeat(CursorCodec.MAX_LENGTH + 1)));
    }

    @Test
    void aCursorFromAnotherSecretIsRejected() {
        CursorCodec other = new CursorCodec("another-secret-of-enough-length".getBytes(StandardCharsets.UTF_8));
        assertInvalid(() -> codec.decode(scope, other.encode(scope, position)));
    }

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_CURSOR));
    }
}
