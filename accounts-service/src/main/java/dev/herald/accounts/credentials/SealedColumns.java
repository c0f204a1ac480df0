package dev.herald.accounts.credentials;

import dev.herald.common.crypto.SealedColumn;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Where this service keeps sealed provider grants (see GrantEncryption), for common's re-seal job. */
@ApplicationScoped
public class SealedColumns {
    @Produces
    @Singleton
    SealedColumn providerCredentials() {
        return new SealedColumn("provider_credentials", "account_id", "ciphertext", "account_id", true);
    }

    @Produces
    @Singleton
    SealedColumn providerRevocations() {
        return new SealedColumn("provider_revocations", "id", "ciphertext", "account_id", true);
    }
}
