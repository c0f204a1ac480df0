package dev.herald.accounts.credentials;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.common.crypto.SecretCipher;
import dev.herald.common.crypto.SecretCiphers;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A provider grant as stored: JSON sealed by common's {@link SecretCipher}, bound to its account id, so a
 * sealed grant copied to another account's row does not open.
 */
@ApplicationScoped
public class GrantEncryption {
    private final SecretCiphers ciphers;
    private final ObjectMapper mapper;

    public GrantEncryption(SecretCiphers ciphers, ObjectMapper mapper) {
        this.ciphers = ciphers;
        this.mapper = mapper;
    }

    public byte[] seal(ProviderGrant grant, String accountId) {
        try {
            return ciphers.current()
                    .encrypt(mapper.writeValueAsString(grant), accountId)
                    .getBytes(StandardCharsets.US_ASCII);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a provider grant could not be serialized");
        }
    }

    /** Fails with common's SecretDecryptionException when the value was altered or belongs to another account. */
    public ProviderGrant open(byte[] sealed, String accountId) {
        try {
            return mapper.readValue(
                    ciphers.current().decrypt(new String(sealed, StandardCharsets.US_ASCII), accountId),
                    ProviderGrant.class);
        } catch (IOException e) {
            throw new IllegalStateException("a stored provider grant could not be read");
        }
    }
}
