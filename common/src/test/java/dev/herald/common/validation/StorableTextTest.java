package dev.herald.common.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.FieldError;
import dev.herald.common.rest.JsonMapperCustomizer;
import org.junit.jupiter.api.Test;

class StorableTextTest {
    private final ObjectMapper mapper = JsonMapperCustomizer.configure(new ObjectMapper());

    @Test
    void nulAndUnpairedSurrogatesAreNotStorableButPairsAndOtherControlCharactersAre() {
        assertThat(StorableText.isStorable("")).isTrue();
        assertThat(StorableText.isStorable("plain \t\n\u0001 text")).isTrue();
        assertThat(StorableText.isStorable("emoji \ud83d\ude00")).isTrue();
        assertThat(StorableText.isStorable("a\u0000b")).isFalse();
        assertThat(StorableText.isStorable("lone high \ud83d")).isFalse();
        assertThat(StorableText.isStorable("\ud83dx")).isFalse();
        assertThat(StorableText.isStorable("lone low \ude00")).isFalse();
        assertThat(StorableText.isStorable("\ude00\ud83d")).isFalse();
    }

    @Test
    void everyUnstorableStringOfABodyIsNamedByItsPath() throws Exception {
        var body = mapper.readTree("{\"text\":\"a\\u0000\",\"ok\":\"fine\",\"account_ids\":[\"acc_1\",\"\\udc00\"],"
                + "\"media\":{\"url\":\"https://x/\\u0000\"},\"platform_options\":{\"youtube\":{\"tags\":[\"ok\",\"\\ud800\"]}},"
                + "\"k\\u0000\":1,\"n\":5}");
        assertThat(StorableText.unstorableFields(body))
                .extracting(FieldError::field)
                .containsExactly("text", "account_ids[1]", "media.url", "platform_options.youtube.tags[1]", "k\u0000");
        assertThat(StorableText.unstorableFields(body))
                .extracting(FieldError::code)
                .containsOnly("invalid_value");
        assertThat(StorableText.unstorableFields(mapper.readTree("{\"text\":\"\\ud83d\\ude00\"}")))
                .isEmpty();
    }
}
