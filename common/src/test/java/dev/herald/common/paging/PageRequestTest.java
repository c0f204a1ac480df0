package dev.herald.common.paging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import org.junit.jupiter.api.Test;

class PageRequestTest {
    @Test
    void limitDefaultsToFiftyAndAcceptsOneToOneHundred() {
        assertThat(PageRequest.parseLimit(null)).isEqualTo(50);
        assertThat(PageRequest.parseLimit("1")).isEqualTo(1);
        assertThat(PageRequest.parseLimit("100")).isEqualTo(100);
    }

    @Test
    void limitOutOfRangeOrNotAnIntegerIsAnInvalidRequest() {
        for (String bad : new String[] {
            "0", "101", "-1", "ten", "1.5", "", "99999999999", "+1", " 1", "1 ", "\uff11\uff10\uff10", "\u0661", "1e1"
        }) {
            assertThatThrownBy(() -> PageRequest.parseLimit(bad)).isInstanceOfSatisfying(ApiException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
                assertThat(e.details()).containsEntry("parameter", "limit");
            });
        }
    }

    @Test
    void anEmptyLimitOrCursorIsNamedAsSuch() {
        assertThatThrownBy(() -> PageRequest.parse("", null, null, null))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.details()).containsEntry("parameter", "limit");
                    assertThat(e.getMessage()).contains("leave it out for the default");
                });
        assertThatThrownBy(() -> PageRequest.parse(null, "", null, null))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.details()).containsEntry("parameter", "cursor");
                    assertThat(e.getMessage()).contains("leave it out for the first page");
                });
    }
}
