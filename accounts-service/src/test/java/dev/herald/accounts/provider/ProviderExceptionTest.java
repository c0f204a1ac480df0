package dev.herald.accounts.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.accounts.provider.http.ProviderErrors;
import dev.herald.common.wire.Platform;
import org.junit.jupiter.api.Test;

class ProviderExceptionTest {
    @Test
    void theReasonIsThePlatformsCodeAndWhatItSaidWithoutHeraldsPrefix() {
        ProviderException refusal = ProviderErrors.exception(
                Platform.YOUTUBE, "invalid_grant", "Token has been expired or revoked.", 400, true, false);
        assertThat(refusal.reason()).isEqualTo("invalid_grant: Token has been expired or revoked.");
    }

    @Test
    void aRefusalWithoutDescriptionIsItsCodeAndAFreeMessageFollowsTheCode() {
        assertThat(ProviderErrors.exception(Platform.TIKTOK, "access_token_invalid", null, 401, true, false)
                        .reason())
                .isEqualTo("access_token_invalid");
        assertThat(new ProviderException("token_refused", "TikTok refused the access token", true, false).reason())
                .isEqualTo("token_refused: TikTok refused the access token");
    }
}
