package dev.herald.posts.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which failures of a series copy end its occurrence ({@link SeriesCopying#refused}) and which are tried again. */
class SeriesCopyRefusalTest {
    @Test
    void aCopyRefusedWhileItsAccountIsBeingMovedIsTriedAgain() {
        ApiException moving =
                new ApiException(ErrorCode.CONFLICT, "moving", Map.of("reason", PostService.ACCOUNT_BEING_MOVED));
        assertThat(SeriesCopying.refused(moving)).isFalse();
    }

    @Test
    void otherConflictsAndRefusalsEndTheOccurrence() {
        assertThat(SeriesCopying.refused(new ApiException(ErrorCode.CONFLICT, "other", Map.of("reason", "x"))))
                .isTrue();
        assertThat(SeriesCopying.refused(new ApiException(ErrorCode.ACCOUNT_CAPACITY_EXCEEDED, "full")))
                .isTrue();
        assertThat(SeriesCopying.refused(IdempotencyKeyClaims.inUse())).isFalse();
    }
}
