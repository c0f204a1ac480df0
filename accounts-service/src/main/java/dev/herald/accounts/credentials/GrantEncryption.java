package dev.herald.accounts.credentials;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.provider.ProviderGrant;
import jakarta.enterprise.context.ApplicationScoped;

/** A provider grant as stored: JSON sealed by the {@link CredentialCipher}, bound to its account id. */
@ApplicationScoped
public class GrantEncryption {
    private final CredentialCipher cipher;
    private final ObjectMapper mapper;

    public GrantEncryption(CredentialCipher cipher, ObjectMapper mapper) {
        this.cipher = cipher;
        this.mapper = mapper;
    }

    public byte[] seal(ProviderGrant grant, String accountId) {
        try {
            return cipher.seal(mapper.writeValueAsBytes(grant), accountId);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a provider grant could not be serialized");
        }
    }

    public ProviderGrant open(byte[] sealed, String accountId) {
        try {
            return mapper.readValue(cipher.open(sealed, accountId), ProviderGrant.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a stored provider grant could not be read");
        }
    }
}
