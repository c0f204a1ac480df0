package dev.herald.gateway.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Post;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PostCsvReaderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static PostCsvReader.Sheet read(String csv) {
        return PostCsvReader.read(csv.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void columnsAreFoundByNameInAnyOrderAndCase() {
        PostCsvRow row = read("Account_IDs, TEXT ,Scheduled_At\nacc_1,Hello,2030-01-01T09:00:00Z\n")
                .rows()
                .get(0);
        assertThat(row.number()).isEqualTo(1);
        assertThat(row.text()).isEqualTo("Hello");
        assertThat(row.accountIds()).containsExactly("acc_1");
        assertThat(row.scheduledAt()).isEqualTo("2030-01-01T09:00:00Z");
        assertThat(row.problems()).isEmpty();
    }

    @Test
    void quotedFieldsKeepCommasQuotesAndLineBreaksAndCrlfEndsLines() {
        List<PostCsvRow> rows = read("text,account_ids\r\n\"Hi, \"\"you\"\"\r\nsecond line\",acc_1\r\nPlain,acc_2\r\n")
                .rows();
        assertThat(rows).hasSize(2);
        // The CRLF inside the quotes is read as one line break: posts carry \n.
        assertThat(rows.get(0).text()).isEqualTo("Hi, \"you\"\nsecond line");
        assertThat(rows.get(1).text()).isEqualTo("Plain");
        assertThat(rows.get(1).number()).isEqualTo(2);
    }

    @Test
    void aByteOrderMarkIsNotPartOfTheFirstColumnsName() {
        PostCsvRow row = read("\uFEFFtext,account_ids\nHello,acc_1\n").rows().get(0);
        assertThat(row.text()).isEqualTo("Hello");
    }

    @Test
    void accountIdsAreSeparatedBySpacesOrSemicolonsAndBlankRowsAreSkipped() {
        List<PostCsvRow> rows =
                read("text,account_ids\nA,acc_1; acc_2  acc_3\n,\n\nB,acc_4\n").rows();
        assertThat(rows).extracting(PostCsvRow::text).containsExactly("A", "B");
        assertThat(rows.get(0).accountIds()).containsExactly("acc_1", "acc_2", "acc_3");
        assertThat(rows.get(1).number()).isEqualTo(2);
    }

    @Test
    void scheduledAtIsNowNextSlotOrTheTimeAsWritten() {
        List<PostCsvRow> rows = read("text,account_ids,scheduled_at\nA,acc_1,\nB,acc_1,Next_Slot\nC,acc_1,tomorrow\n")
                .rows();
        assertThat(rows).extracting(PostCsvRow::scheduledAt).containsExactly(null, "next_slot", "tomorrow");
        assertThat(rows.get(0).body()).doesNotContainKey("scheduled_at");
        // The API judges the time ("tomorrow" is its invalid_format, not the reader's).
        assertThat(rows.get(2).problems()).isEmpty();
    }

    @Test
    void mediaTypesFollowTheFileNameUnlessAColumnNamesThem() {
        List<PostCsvRow> rows = read("text,account_ids,media_urls,media_types\n"
                        + "A,acc_1,https://cdn.example.org/a.MP4?x=1,\n"
                        + "B,acc_1,https://cdn.example.org/deck.pdf https://cdn.example.org/b.jpg,\n"
                        + "C,acc_1,https://cdn.example.org/clip,video\n")
                .rows();
        assertThat(rows.get(0).media().items())
                .containsExactly(new Post.Media("https://cdn.example.org/a.MP4?x=1", "video"));
        assertThat(rows.get(0).media().listed()).isFalse();
        assertThat(rows.get(1).media().items()).extracting(Post.Media::type).containsExactly("document", "image");
        assertThat(rows.get(1).media().listed()).isTrue();
        assertThat(rows.get(2).media().first().type()).isEqualTo("video");
    }

    @Test
    void aBadUrlListOrTypeListIsTheRowsProblem() {
        List<PostCsvRow> rows = read("text,account_ids,media_urls,media_types\n"
                        + "A,acc_1,http://cdn.example.org/a.jpg,\n"
                        + "B,acc_1,https://cdn.example.org/a.jpg,image video\n"
                        + "C,acc_1,https://cdn.example.org/a.jpg,gif\n"
                        + "D,acc_1,,image\n")
                .rows();
        assertThat(rows).allSatisfy(row -> assertThat(row.media()).isNull());
        assertThat(rows.get(0).problems()).extracting(FieldError::field).containsExactly("media_urls");
        assertThat(rows.get(0).problems().get(0).message()).contains("http://cdn.example.org/a.jpg");
        assertThat(rows.get(1).problems().get(0).message()).isEqualTo("media_types names 2 types for 1 media URLs.");
        assertThat(rows.get(2).problems()).extracting(FieldError::field).containsExactly("media_types");
        assertThat(rows.get(3).problems()).extracting(FieldError::field).containsExactly("media_types");
    }

    @Test
    void aRowWithMoreCellsThanTheHeaderIsAProblem() {
        PostCsvRow row = read("text,account_ids\nHello, world,acc_1\n").rows().get(0);
        assertThat(row.problems()).extracting(FieldError::field).containsExactly("row");
    }

    @Test
    void theBodyIsWhatPostPostsTakes() {
        PostCsvRow row = read("text,account_ids,scheduled_at,media_urls,first_comment\n"
                        + "Hello,acc_1 acc_2,2030-01-01T09:00:00Z,https://cdn.example.org/a.jpg,More below\n")
                .rows()
                .get(0);
        assertThat((JsonNode) JSON.valueToTree(row.body()))
                .isEqualTo(JSON.valueToTree(Map.of(
                        "text", "Hello",
                        "account_ids", List.of("acc_1", "acc_2"),
                        "scheduled_at", "2030-01-01T09:00:00Z",
                        "media", Map.of("url", "https://cdn.example.org/a.jpg", "type", "image"),
                        "first_comment", Map.of("text", "More below"))));
    }

    @Test
    void theIdempotencyKeyIsTheFilesHashAndTheRowNumber() {
        byte[] file = "text,account_ids\nA,acc_1\nB,acc_1\n".getBytes(StandardCharsets.UTF_8);
        PostCsvReader.Sheet once = PostCsvReader.read(file);
        PostCsvReader.Sheet again = PostCsvReader.read(file.clone());
        assertThat(once.fingerprint()).isEqualTo(again.fingerprint()).matches("[0-9a-f]{64}");
        assertThat(once.rows().get(1).idempotencyKey(once.fingerprint()))
                .isEqualTo("dashboard-csv-" + once.fingerprint() + "-2")
                .hasSizeLessThanOrEqualTo(255);
        PostCsvReader.Sheet other = read("text,account_ids\nA,acc_1\nB,acc_2\n");
        assertThat(other.fingerprint()).isNotEqualTo(once.fingerprint());
    }

    @Test
    void whatMakesTheWholeFileUnusableIsRefusedWithItsReason() {
        assertRefused("", "The file is empty");
        assertRefused("text,account_ids\n", "no rows");
        assertRefused("text\nHello\n", "no \"account_ids\" column");
        assertRefused("text,account_ids,schedule\nA,acc_1,2030-01-01T09:00:00Z\n", "unknown column \"schedule\"");
        assertRefused("text,account_ids,Text\nA,acc_1,B\n", "\"text\" twice");
        assertRefused("text,account_ids\n\"never closed,acc_1\n", "not readable as CSV");
        assertThatThrownBy(() -> PostCsvReader.read(new byte[] {'t', ',', (byte) 0xC3, (byte) 0x28, '\n'}))
                .isInstanceOf(PostCsvReader.CsvFileProblem.class)
                .hasMessageContaining("not UTF-8");
        assertThatThrownBy(() -> PostCsvReader.read(new byte[PostCsvReader.MAX_BYTES + 1]))
                .hasMessageContaining("larger than 1 MiB");
    }

    @Test
    void atMostOneHundredRowsAreTaken() {
        StringBuilder csv = new StringBuilder("text,account_ids\n");
        for (int i = 1; i <= 100; i++) {
            csv.append("Post ").append(i).append(",acc_1\n");
        }
        assertThat(read(csv.toString()).rows()).hasSize(100);
        assertRefused(csv + "Post 101,acc_1\n", "more than 100 rows");
    }

    private static void assertRefused(String csv, String reason) {
        assertThatThrownBy(() -> read(csv))
                .isInstanceOf(PostCsvReader.CsvFileProblem.class)
                .hasMessageContaining(reason);
    }
}
