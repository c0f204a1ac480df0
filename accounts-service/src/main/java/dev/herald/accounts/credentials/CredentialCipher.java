package dev.herald.accounts.credentials;

/**
 * Encrypts provider credentials for storage. {@code context} (the account id) is authenticated with the
 * ciphertext, so a sealed credential copied to another account's row does not open. Implementations never log
 * plaintext. The AES-GCM cipher here is the default until the shared secret cipher replaces it (a bean of
 * this type without {@code @DefaultBean} wins).
 */
public interface CredentialCipher {
    byte[] seal(byte[] plaintext, String context);

    /** Fails with {@link IllegalStateException} when the ciphertext was altered or belongs to another context. */
    byte[] open(byte[] sealed, String context);
}
