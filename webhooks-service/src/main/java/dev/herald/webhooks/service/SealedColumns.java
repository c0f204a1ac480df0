package dev.herald.webhooks.service;

import dev.herald.common.crypto.SealedColumn;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Where this service keeps sealed signing secrets (see SigningSecrets), for common's re-seal job. */
@ApplicationScoped
public class SealedColumns {
    @Produces
    @Singleton
    SealedColumn endpointSecrets() {
        return new SealedColumn("endpoint_secrets", "id", "sealed", "endpoint_id", false);
    }
}
