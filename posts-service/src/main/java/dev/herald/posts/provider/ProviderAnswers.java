package dev.herald.posts.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.wire.Platform;
import java.util.Map;

/** Reading what a platform's success answers must hold. */
final class ProviderAnswers {
    private ProviderAnswers() {}

    /** The id a created comment comes back with; a success without one cannot be stored or replied to later. */
    static String requiredText(Platform platform, ActingAccount account, JsonNode value) {
        if (!value.isTextual() || value.asText().isBlank()) {
            throw new ApiException(
                    ErrorCode.PROVIDER_ERROR,
                    platform.displayName() + " accepted the comment but did not say its id; look for it on "
                            + platform.displayName() + ".",
                    Map.of("account_id", account.access().accountId(), "platform", platform.wireName()));
        }
        return value.asText();
    }
}
