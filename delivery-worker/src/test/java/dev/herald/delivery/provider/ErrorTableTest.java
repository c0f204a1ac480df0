package dev.herald.delivery.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.wire.TargetError;
import dev.herald.delivery.support.ErrorTables;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class ErrorTableTest {

    @Test
    void aBrokenConnectionIsANetworkFailureToRetryLater() {
        TargetError error =
                PublicationSteps.errorOf(PlatformResponses.brokenUpload("LinkedIn", new IOException("reset")));

        assertThat(error.category()).isEqualTo(TargetError.CATEGORY_NETWORK);
        assertThat(error.action()).isEqualTo(TargetError.ACTION_RETRY_LATER);
        assertThat(error.retryable()).isTrue();
        assertThat(error.message())
                .isEqualTo("The upload to LinkedIn broke off: the connection failed mid-way; nothing was published, and"
                        + " the next attempt uploads again (IOException).");
    }

    @Test
    void aStatusNoPlatformRowNamesFallsBackToTheSharedOnes() {
        ErrorTable table =
                ErrorTable.of("Example", ErrorTable.retry("http 503", TargetError.CATEGORY_PLATFORM, "down"));

        assertThat(table.httpRow(503).meaning()).isEqualTo("down");
        assertThat(table.httpRow(502).key()).isEqualTo("http 5xx");
        assertThat(table.httpRow(429).category()).isEqualTo(TargetError.CATEGORY_RATE_LIMIT);
        assertThat(table.httpRow(418).action()).isEqualTo(TargetError.ACTION_CONTACT_SUPPORT);
    }

    @Test
    void aPlatformsWordsAreQuotedButNeverABodyOrAToken() {
        assertThat(ErrorTable.quotable("{\"error\":{\"message\":\"x\"}}")).isEmpty();
        assertThat(ErrorTable.quotable("<html><body>Bad gateway</body></html>")).isEmpty();
        assertThat(ErrorTable.quotable("Invalid token EAAGm0PX4ZCpsBAKZCZBxyzxyzxyzxyzxyzxyzxyzxyzxyzxyz1234 given"))
                .isEqualTo("Invalid token [redacted] given");
        assertThat(ErrorTable.quotable("too long ".repeat(50))).hasSize(303).endsWith("...");
    }

    @Test
    void aTableListsEachKeyOnce() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ErrorTable.of(
                        "Example",
                        ErrorTable.retry("code 1", TargetError.CATEGORY_PLATFORM, "one"),
                        ErrorTable.retry("code 1", TargetError.CATEGORY_PLATFORM, "again")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theReferenceListsEveryRow() {
        ErrorTables.assertListed("Every platform", ErrorTable.HTTP);
    }
}
