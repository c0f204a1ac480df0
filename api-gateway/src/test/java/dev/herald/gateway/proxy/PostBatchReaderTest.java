package dev.herald.gateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.FieldError;
import dev.herald.common.rest.JsonMapperCustomizer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PostBatchReaderTest {
    private static final ObjectMapper JSON = JsonMapperCustomizer.configure(new ObjectMapper());

    private static List<PostBatchReader.Item> read(String body) {
        return PostBatchReader.read(body.getBytes(StandardCharsets.UTF_8), JSON);
    }

    private static ApiException refusal(String body) {
        try {
            read(body);
        } catch (ApiException refusal) {
            return refusal;
        }
        throw new AssertionError("accepted: " + body);
    }

    @SuppressWarnings("unchecked")
    private static List<String> fields(ApiException refusal) {
        assertThat(refusal.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
        return ((List<FieldError>) refusal.details().get("errors"))
                .stream().map(error -> error.field() + " " + error.code()).toList();
    }

    private static String posts(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> "{\"idempotency_key\":\"k-" + i + "\",\"text\":\"Hi\"}")
                .collect(Collectors.joining(",", "{\"posts\":[", "]}"));
    }

    @Test
    void eachItemIsItsKeyAndThePostsBodyWithoutIt() {
        List<PostBatchReader.Item> items = read("{\"posts\":[{\"idempotency_key\":\"a\",\"text\":\"One\","
                + "\"account_ids\":[\"acc_1\"],\"unknown\":true},{\"text\":\"Two\",\"idempotency_key\":\"b b\"}]}");
        assertThat(items).extracting(PostBatchReader.Item::idempotencyKey).containsExactly("a", "b b");
        // The post's own fields, unknown ones included, are posts-service's to judge.
        assertThat(items.get(0).post().toString())
                .isEqualTo("{\"text\":\"One\",\"account_ids\":[\"acc_1\"],\"unknown\":true}");
        assertThat(items.get(1).post().toString()).isEqualTo("{\"text\":\"Two\"}");
    }

    @Test
    void aBodyThatIsNoJsonObjectIsAnInvalidRequest() {
        for (String body :
                List.of("", "{\"posts\":", "[]", "\"posts\"", "null", "{\"posts\":[]} x", "{\"a\":1,\"a\":2}")) {
            assertThat(refusal(body).code()).as(body).isEqualTo(ErrorCode.INVALID_REQUEST);
        }
    }

    @Test
    void postsMustBeAnArrayOfOneToAHundred() {
        assertThat(fields(refusal("{}"))).containsExactly("posts required");
        assertThat(fields(refusal("{\"posts\":null}"))).containsExactly("posts required");
        assertThat(fields(refusal("{\"posts\":{}}"))).containsExactly("posts invalid_type");
        assertThat(fields(refusal("{\"posts\":[]}"))).containsExactly("posts too_short");
        assertThat(fields(refusal(posts(101)))).containsExactly("posts too_long");
        assertThat(read(posts(100))).hasSize(100);
        assertThat(fields(refusal("{\"posts\":[],\"dry_run\":true}")))
                .containsExactly("dry_run unknown_field", "posts too_short");
    }

    @Test
    void everyItemProblemIsListedAtItsIndex() {
        ApiException refusal = refusal("{\"posts\":["
                + "{\"idempotency_key\":\"ok\",\"text\":\"Hi\"},"
                + "5,"
                + "{\"text\":\"no key\"},"
                + "{\"idempotency_key\":7},"
                + "{\"idempotency_key\":\"\"},"
                + "{\"idempotency_key\":\"" + "k".repeat(256) + "\"},"
                + "{\"idempotency_key\":\"tab\\tkey\"},"
                + "{\"idempotency_key\":\" padded\"},"
                + "{\"idempotency_key\":\"ok\"},"
                + "{\"idempotency_key\":null}]}");
        assertThat(fields(refusal))
                .containsExactly(
                        "posts[1] invalid_type",
                        "posts[2].idempotency_key required",
                        "posts[3].idempotency_key invalid_type",
                        "posts[4].idempotency_key too_short",
                        "posts[5].idempotency_key too_long",
                        "posts[6].idempotency_key invalid_format",
                        "posts[7].idempotency_key invalid_format",
                        "posts[8].idempotency_key invalid_value",
                        "posts[9].idempotency_key required");
    }

    @Test
    void aKeyOfTwoHundredFiftyFivePrintableCharactersIsTaken() {
        String key = "~ !" + "k".repeat(252);
        assertThat(read("{\"posts\":[{\"idempotency_key\":\"" + key + "\"}]}"))
                .extracting(PostBatchReader.Item::idempotencyKey)
                .containsExactly(key);
        assertThatThrownBy(() -> read("{\"posts\":[{\"idempotency_key\":\"é\"}]}"))
                .isInstanceOf(ApiException.class);
    }
}
