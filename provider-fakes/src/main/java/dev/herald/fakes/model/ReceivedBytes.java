package dev.herald.fakes.model;

/**
 * The bytes of an upload request as the fake received them: streamed through, never held, so only their count and
 * SHA-256 are known. A test compares them with the source file's to see that every byte arrived unchanged.
 */
public record ReceivedBytes(long size, String sha256) {

    /** How the journal shows the body of an upload. */
    public String summary() {
        return "<" + size + " bytes, sha256 " + sha256 + ">";
    }
}
