package dev.herald.accounts.config;

import dev.herald.common.crypto.SecretCiphers;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Builds the cipher for provider tokens at startup, so a production run without a usable
 * {@code herald.secret-cipher.current-key} stops at once with the reason instead of failing its first connect.
 */
@ApplicationScoped
public class SecretCipherStartupCheck {
    private static final Logger LOG = Logger.getLogger(SecretCipherStartupCheck.class);

    void verify(@Observes StartupEvent event, SecretCiphers ciphers) {
        LOG.debugf("provider tokens are sealed with key %s", ciphers.current().currentKeyId());
    }
}
