package dev.herald.posts.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.posts.provider.PlatformFailures.Kind;
import dev.herald.posts.provider.PlatformFailures.PlatformError;
import org.junit.jupiter.api.Test;

/** What TikTok's error envelope means to a post analytics read (TikTok API v2's error table). */
class TikTokAnalyticsErrorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode envelope(String code) throws Exception {
        return JSON.readTree("""
                {"data":{},"error":{"code":"%s","message":"m","log_id":"202611251053AB"}}""".formatted(code));
    }

    @Test
    void eachDocumentedCodeMeansWhatTikTokSays() throws Exception {
        assertThat(TikTokAnalytics.error(401, envelope("access_token_invalid")))
                .isEqualTo(new PlatformError(Kind.TOKEN_REFUSED, "access_token_invalid", "m"));
        assertThat(TikTokAnalytics.error(401, envelope("scope_not_authorized")))
                .isEqualTo(new PlatformError(Kind.SCOPE_NOT_GRANTED, "scope_not_authorized", "m"));
        assertThat(TikTokAnalytics.error(429, envelope("rate_limit_exceeded")))
                .isEqualTo(new PlatformError(Kind.RATE_LIMITED, "rate_limit_exceeded", "m"));
        assertThat(TikTokAnalytics.error(400, envelope("invalid_params")))
                .isEqualTo(new PlatformError(Kind.FAILED, "invalid_params", "m"));
        assertThat(TikTokAnalytics.error(500, envelope("internal_error")))
                .isEqualTo(new PlatformError(Kind.FAILED, "internal_error", "m"));
    }

    @Test
    void withoutAnEnvelopeTheHttpStatusDecides() throws Exception {
        assertThat(TikTokAnalytics.error(401, JSON.createObjectNode()).kind()).isEqualTo(Kind.TOKEN_REFUSED);
        assertThat(TikTokAnalytics.error(429, JSON.createObjectNode()).kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(TikTokAnalytics.error(502, JSON.createObjectNode()).kind()).isEqualTo(Kind.FAILED);
    }
}
