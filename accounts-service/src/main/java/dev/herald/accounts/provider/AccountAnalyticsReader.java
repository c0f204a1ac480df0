package dev.herald.accounts.provider;

import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Uni;

/**
 * One platform's audience numbers for a live account, in one call with the account's access token. A refusal is a
 * {@link ProviderException} ({@code revoked} for a dead token: the caller renews it once and asks again).
 */
public interface AccountAnalyticsReader {

    Platform platform();

    /** {@code externalId} is the account's provider id (channel, Page, Instagram user, ...). */
    Uni<AccountStatistics> read(String accessToken, String externalId);
}
