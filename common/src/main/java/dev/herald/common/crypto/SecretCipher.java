package dev.herald.common.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts secrets for storage (provider tokens, webhook secrets) with AES-256-GCM.
 *
 * <p>A sealed value is the text {@code hsc1.<key id>.<base64url(nonce || ciphertext || tag)>}: a fresh random
 * 96-bit nonce per value, and the id of the key that sealed it, so keys can rotate: values are always sealed
 * with the current key and opened with whichever configured key they name. The caller's associated data (say,
 * the account id the token belongs to) is authenticated but not stored, so a sealed value copied onto another
 * row does not open there. The key id and format version are authenticated too.
 */
public final class SecretCipher {
    private static final String FORMAT = "hsc1";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKey current;
    private final Map<String, SecretKey> keys;

    /**
     * @param current the key new values are sealed with
     * @param retired keys that only open values sealed before a rotation
     */
    public SecretCipher(SecretKey current, List<SecretKey> retired) {
        this.current = Objects.requireNonNull(current, "current");
        Map<String, SecretKey> byId = new LinkedHashMap<>();
        byId.put(current.id(), current);
        for (SecretKey key : retired) {
            if (byId.putIfAbsent(key.id(), key) != null) {
                throw new IllegalArgumentException("secret key id " + key.id() + " is configured twice");
            }
        }
        this.keys = Map.copyOf(byId);
    }

    /** Seals {@code plaintext} with the current key, bound to {@code associatedData}. */
    public String encrypt(String plaintext, String associatedData) {
        Objects.requireNonNull(plaintext, "plaintext");
        Objects.requireNonNull(associatedData, "associatedData");
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, current.spec(), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(aad(current.id(), associatedData));
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            byte[] body = new byte[NONCE_BYTES + sealed.length];
            System.arraycopy(nonce, 0, body, 0, NONCE_BYTES);
            System.arraycopy(sealed, 0, body, NONCE_BYTES, sealed.length);
            return FORMAT + "." + current.id() + "."
                    + Base64.getUrlEncoder().withoutPadding().encodeToString(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable", e);
        }
    }

    /**
     * Opens a value sealed by {@link #encrypt} under any configured key. Fails with
     * {@link SecretDecryptionException} when the value is malformed, names an unknown key, was altered, or was
     * sealed for other associated data; the message never contains the value.
     */
    public String decrypt(String sealedValue, String associatedData) {
        Objects.requireNonNull(sealedValue, "sealedValue");
        Objects.requireNonNull(associatedData, "associatedData");
        String[] parts = sealedValue.split("\\.", -1);
        if (parts.length != 3 || !FORMAT.equals(parts[0])) {
            throw new SecretDecryptionException("not a sealed secret");
        }
        SecretKey key = keys.get(parts[1]);
        if (key == null) {
            throw new SecretDecryptionException("sealed with key " + parts[1] + ", which is not configured");
        }
        byte[] body;
        try {
            body = Base64.getUrlDecoder().decode(parts[2]);
        } catch (IllegalArgumentException e) {
            throw new SecretDecryptionException("not a sealed secret");
        }
        if (body.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new SecretDecryptionException("not a sealed secret");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key.spec(), new GCMParameterSpec(TAG_BITS, body, 0, NONCE_BYTES));
            cipher.updateAAD(aad(key.id(), associatedData));
            byte[] plaintext = cipher.doFinal(body, NONCE_BYTES, body.length - NONCE_BYTES);
            return new String(plaintext, StandardCharsets.UTF_8);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new SecretDecryptionException("the sealed secret was altered or belongs to other data");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable", e);
        }
    }

    public String currentKeyId() {
        return current.id();
    }

    /** How every value sealed with {@code keyId} begins. */
    public static String sealedPrefix(String keyId) {
        return FORMAT + "." + keyId + ".";
    }

    private static byte[] aad(String keyId, String associatedData) {
        // The key id cannot contain '.', so the prefix is unambiguous before the caller's data.
        return (FORMAT + "." + keyId + "." + associatedData).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "SecretCipher[current=" + current.id() + ", keys=" + keys.keySet() + "]";
    }

    /** A named 256-bit AES key. Its {@code toString} shows only the id. */
    public record SecretKey(String id, byte[] material) {
        public SecretKey {
            if (id == null || !id.matches("[A-Za-z0-9_-]{1,32}")) {
                throw new IllegalArgumentException("a secret key id is 1 to 32 of A-Z, a-z, 0-9, '_' and '-'");
            }
            if (material == null || material.length != 32) {
                throw new IllegalArgumentException("secret key " + id + " must be exactly 32 bytes (AES-256), got "
                        + (material == null ? 0 : material.length));
            }
            material = material.clone();
        }

        /**
         * Parses {@code <id>:<base64 of 32 bytes>}, the configured form.
         *
         * @throws IllegalArgumentException naming the problem, never echoing the key material
         */
        public static SecretKey parse(String configured) {
            if (configured == null || configured.isBlank()) {
                throw new IllegalArgumentException("a secret key is empty");
            }
            int colon = configured.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("a secret key must look like <id>:<base64 of 32 bytes>");
            }
            String id = configured.substring(0, colon).trim();
            byte[] material;
            try {
                material = Base64.getDecoder()
                        .decode(configured.substring(colon + 1).trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("secret key " + id + " is not valid base64");
            }
            return new SecretKey(id, material);
        }

        public static SecretKey generate(String id) {
            byte[] material = new byte[32];
            RANDOM.nextBytes(material);
            return new SecretKey(id, material);
        }

        SecretKeySpec spec() {
            return new SecretKeySpec(material, "AES");
        }

        @Override
        public byte[] material() {
            return material.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof SecretKey key
                    && key.id.equals(id)
                    && java.util.Arrays.equals(key.material, material);
        }

        @Override
        public int hashCode() {
            return id.hashCode();
        }

        @Override
        public String toString() {
            return "SecretKey[id=" + id + "]";
        }
    }
}
