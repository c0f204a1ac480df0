package dev.herald.local;

import dev.herald.common.auth.InternalTokens;
import dev.herald.common.crypto.SecretCiphers;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The local suite's keys as files, laid out as the services read them from a mounted Secret
 * ({@code herald.internal-jwt.key-directory}, {@code herald.secret-cipher.key-directory}): written from
 * {@code secrets.properties} at every start, and read again by the running services when they change, so a key
 * rotates on a running suite without a restart (as the rotation system test does). A rotation made in these files
 * lasts until the suite stops: the next start writes them from {@code secrets.properties} again.
 */
public final class KeyDirectories {
    private KeyDirectories() {}

    static void write(StateDirectory state, LocalSecrets secrets) throws IOException {
        writeInternalJwt(
                state.internalJwtKeys(),
                secrets.internalJwtVerifyKeys(),
                secrets.internalJwtSigningKeyId(),
                secrets.internalJwtPrivateKey());
        writeCipher(state.cipherKeys(), secrets.secretCipherKey(), "");
    }

    /**
     * The internal JWT's keys. Each file is replaced whole; the private key before its id, so a service that reads
     * between the two sees a key that does not match its id, refuses the pair and keeps the keys it had.
     */
    public static void writeInternalJwt(Path directory, String verifyKeys, String signingKeyId, String privateKey)
            throws IOException {
        StateDirectory.writeAtomically(directory.resolve(InternalTokens.VERIFY_KEYS_FILE), verifyKeys, true);
        StateDirectory.writeAtomically(directory.resolve(InternalTokens.PRIVATE_KEY_FILE), privateKey, true);
        StateDirectory.writeAtomically(directory.resolve(InternalTokens.SIGNING_KEY_ID_FILE), signingKeyId, true);
    }

    /**
     * The secret cipher's keys ({@code <id>:<base64>}; retired ones comma-separated). The retired keys are written
     * first: a service that reads between the two writes sees a set naming one key twice, refuses it and keeps the
     * keys it had, never a new current key without the old one beside it.
     */
    public static void writeCipher(Path directory, String currentKey, String retiredKeys) throws IOException {
        StateDirectory.writeAtomically(directory.resolve(SecretCiphers.RETIRED_KEYS_FILE), retiredKeys, true);
        StateDirectory.writeAtomically(directory.resolve(SecretCiphers.CURRENT_KEY_FILE), currentKey, true);
    }
}
