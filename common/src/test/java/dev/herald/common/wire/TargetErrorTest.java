package dev.herald.common.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Herald's own delivery errors, which no platform table files: each code's default category and action. */
class TargetErrorTest {

    @Test
    void heraldsOwnCodesSayWhatTheCustomerCanDo() {
        assertFiled(TargetError.ACCOUNT_DISCONNECTED, false, "auth", "reconnect");
        assertFiled(TargetError.ACCOUNT_REAUTH_REQUIRED, false, "auth", "reconnect");
        assertFiled(TargetError.MEDIA_UNAVAILABLE, false, "media", "replace_media");
        assertFiled(TargetError.MEDIA_UNAVAILABLE, true, "media", "retry_later");
        assertFiled(TargetError.MEDIA_TOO_LARGE, false, "media", "replace_media");
        assertFiled(TargetError.ATTEMPTS_EXHAUSTED, false, "platform", "contact_support");
        assertFiled(TargetError.PUBLICATION_UNCONFIRMED, false, "platform", "contact_support");
        assertFiled(TargetError.DELIVERY_TIMEOUT, true, "platform", "retry_later");
        assertFiled("usage_limit_exceeded", false, "rate_limit", "retry_later");
        assertFiled("account_capacity_exceeded", false, "rate_limit", "contact_support");
        assertFiled(TargetError.PUBLISHER_UNAVAILABLE, false, "platform", "contact_support");
        assertFiled(TargetError.PROVIDER_ERROR, true, "platform", "retry_later");
        assertFiled(TargetError.PROVIDER_ERROR, false, "platform", "contact_support");
    }

    @Test
    void aPlatformTablesFilingOverridesTheDefault() {
        TargetError error = new TargetError(TargetError.PROVIDER_ERROR, "m", false, Map.of())
                .as(TargetError.CATEGORY_AUTH, TargetError.ACTION_RECONNECT);

        assertThat(error.category()).isEqualTo("auth");
        assertThat(error.action()).isEqualTo("reconnect");
    }

    private static void assertFiled(String code, boolean retryable, String category, String action) {
        TargetError error = new TargetError(code, "m", retryable, null);
        assertThat(error.category()).as("%s (retryable %s)", code, retryable).isEqualTo(category);
        assertThat(error.action()).as("%s (retryable %s)", code, retryable).isEqualTo(action);
    }
}
