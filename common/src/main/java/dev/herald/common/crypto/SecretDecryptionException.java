package dev.herald.common.crypto;

/** A sealed secret that cannot be opened: malformed, sealed with an unconfigured key, altered, or bound elsewhere. */
public class SecretDecryptionException extends RuntimeException {
    public SecretDecryptionException(String message) {
        super(message);
    }
}
