package dev.herald.accounts.credentials;

import dev.herald.accounts.config.AccountsConfig;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM with a random 96-bit nonce per message: {@code version(1) || nonce(12) || ciphertext+tag}. The
 * key is {@code herald.accounts.credential-key} (base64 of 32 bytes); without it, storing a live credential
 * fails rather than falling back to clear text.
 */
@ApplicationScoped
@DefaultBean
public class AesGcmCredentialCipher implements CredentialCipher {
    private static final byte VERSION = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final AccountsConfig config;
    private final SecureRandom random = new SecureRandom();
    private volatile SecretKeySpec key;

    public AesGcmCredentialCipher(AccountsConfig config) {
        this.config = config;
    }

    @Override
    public byte[] seal(byte[] plaintext, String context) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key(), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext);
            return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length).put(VERSION).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("credential encryption failed", e);
        }
    }

    @Override
    public byte[] open(byte[] sealed, String context) {
        if (sealed.length < 1 + NONCE_BYTES + TAG_BITS / 8 || sealed[0] != VERSION) {
            throw new IllegalStateException("not a sealed credential");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key(), new GCMParameterSpec(TAG_BITS, sealed, 1, NONCE_BYTES));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(sealed, 1 + NONCE_BYTES, sealed.length - 1 - NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the credential does not open with this key and context");
        }
    }

    private SecretKeySpec key() {
        if (key == null) {
            String encoded = config.credentialKey()
                    .orElseThrow(() -> new IllegalStateException("herald.accounts.credential-key is not configured"));
            byte[] bytes = Base64.getDecoder().decode(encoded.trim());
            if (bytes.length != 32) {
                throw new IllegalStateException("herald.accounts.credential-key must be base64 of 32 bytes");
            }
            key = new SecretKeySpec(bytes, "AES");
        }
        return key;
    }
}
