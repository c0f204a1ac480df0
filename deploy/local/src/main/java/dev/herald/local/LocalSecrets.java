package dev.herald.local;

import dev.herald.common.auth.RsaKeys;
import dev.herald.common.crypto.SecretCipher;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;

/**
 * The secrets of a local suite: the internal JWT's signing key (its id and private key) and verification key set (a
 * JWKS), the cursor signing secret, the secret cipher's key, the admin token and the demo workspace's API keys. Generated on the first start and kept in {@code secrets.properties} (mode 600) so
 * that keys handed out, cursors and tokens stay valid across {@code down}/{@code up}.
 *
 * <p>The exception is {@code dashboardSignInToken}, the demo workspace owner's one-time dashboard sign-in token:
 * the gateway consumes it on first use, so it is never stored and every start makes a new one.
 */
public record LocalSecrets(
        String internalJwtVerifyKeys,
        String internalJwtSigningKeyId,
        String internalJwtPrivateKey,
        String cursorSecret,
        String adminToken,
        String demoTestKey,
        String demoLiveKey,
        String secretCipherKey,
        String dashboardSignInToken) {

    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The id of the first internal JWT key of a suite. */
    static final String FIRST_KEY_ID = "local1";

    /** Reads the stored secrets, generating (and storing) whatever is missing. */
    public static LocalSecrets loadOrGenerate(Path file) throws IOException {
        Properties stored = new Properties();
        if (Files.exists(file)) {
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                stored.load(reader);
            }
        }
        boolean changed = internalJwtKeys(stored);
        changed |= generateIfMissing(stored, "cursor-secret", () -> randomBase64(32));
        changed |= generateIfMissing(stored, "admin-token", () -> "hat_" + randomBase62(32));
        changed |= generateIfMissing(stored, "demo-test-key", () -> "sk_test_" + randomBase62(32));
        changed |= generateIfMissing(stored, "demo-live-key", () -> "sk_live_" + randomBase62(32));
        // Added after the first suites were created: an older file gains the key on its next start.
        changed |= generateIfMissing(stored, "secret-cipher-key", () -> "local1:" + randomBase64(32));
        LocalSecrets secrets = new LocalSecrets(
                stored.getProperty("internal-jwt.verify-keys"),
                stored.getProperty("internal-jwt.signing-key-id"),
                stored.getProperty("internal-jwt.private-key"),
                stored.getProperty("cursor-secret"),
                stored.getProperty("admin-token"),
                stored.getProperty("demo-test-key"),
                stored.getProperty("demo-live-key"),
                stored.getProperty("secret-cipher-key"),
                randomBase64Url(32));
        secrets.validate(file);
        if (changed) {
            StringWriter text = new StringWriter();
            stored.store(text, "Herald local runtime secrets; delete this file to generate new ones");
            StateDirectory.writeAtomically(file, text.toString(), true);
        } else {
            // An older or hand-copied file may be readable by others; these are credentials.
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
        return secrets;
    }

    /** The configured fixed credentials take the place of the stored ones (which stay stored). */
    public LocalSecrets withOverrides(LocalSuiteConfig config) {
        return new LocalSecrets(
                internalJwtVerifyKeys,
                internalJwtSigningKeyId,
                internalJwtPrivateKey,
                cursorSecret,
                config.adminToken() != null ? config.adminToken() : adminToken,
                config.demoTestKey() != null ? config.demoTestKey() : demoTestKey,
                config.demoLiveKey() != null ? config.demoLiveKey() : demoLiveKey,
                secretCipherKey,
                dashboardSignInToken);
    }

    private void validate(Path file) {
        try {
            RsaKeys.readJwks(internalJwtVerifyKeys);
            RsaKeys.checkedKeyId(internalJwtSigningKeyId);
            RsaKeys.readPrivateKey(internalJwtPrivateKey);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(
                    file + " holds an unusable internal JWT key; delete the file to generate new secrets", e);
        }
        try {
            SecretCipher.SecretKey.parse(secretCipherKey);
        } catch (IllegalArgumentException e) {
            // Deleting the file would orphan secrets stored under the old key; say what is wrong instead.
            throw new IllegalStateException(file + " holds an unusable secret-cipher-key: " + e.getMessage(), e);
        }
    }

    /**
     * A key pair named {@value #FIRST_KEY_ID} when there is none. A file from before key ids had the pair as
     * {@code public-key} and {@code private-key}: its public key becomes the one key of the set, under that name.
     */
    private static boolean internalJwtKeys(Properties stored) {
        if (stored.getProperty("internal-jwt.verify-keys") != null
                && stored.getProperty("internal-jwt.signing-key-id") != null
                && stored.getProperty("internal-jwt.private-key") != null) {
            return false;
        }
        String publicKey = stored.getProperty("internal-jwt.public-key");
        if (publicKey == null || stored.getProperty("internal-jwt.private-key") == null) {
            KeyPair keys = RsaKeys.generate();
            publicKey = RsaKeys.publicKeyPem(keys.getPublic());
            stored.setProperty("internal-jwt.private-key", RsaKeys.privateKeyPem(keys.getPrivate()));
        }
        stored.setProperty(
                "internal-jwt.verify-keys", RsaKeys.jwks(Map.of(FIRST_KEY_ID, RsaKeys.readPublicKey(publicKey))));
        stored.setProperty("internal-jwt.signing-key-id", FIRST_KEY_ID);
        stored.remove("internal-jwt.public-key");
        return true;
    }

    private static boolean generateIfMissing(
            Properties stored, String key, java.util.function.Supplier<String> generator) {
        if (stored.getProperty(key) == null || stored.getProperty(key).isBlank()) {
            stored.setProperty(key, generator.get());
            return true;
        }
        return false;
    }

    static String randomBase62(int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(BASE62.charAt(RANDOM.nextInt(BASE62.length())));
        }
        return text.toString();
    }

    private static String randomBase64(int bytes) {
        byte[] secret = new byte[bytes];
        RANDOM.nextBytes(secret);
        return Base64.getEncoder().encodeToString(secret);
    }

    /** 43 characters: URL-safe without padding, so the token is a path segment of the sign-in link as it is. */
    private static String randomBase64Url(int bytes) {
        byte[] secret = new byte[bytes];
        RANDOM.nextBytes(secret);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    /** Never prints a secret. */
    @Override
    public String toString() {
        return "LocalSecrets[redacted]";
    }
}
