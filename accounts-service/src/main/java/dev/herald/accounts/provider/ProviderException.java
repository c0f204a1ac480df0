package dev.herald.accounts.provider;

/**
 * A provider's refusal or failure. {@code code} is the provider's own error code (e.g. "invalid_grant",
 * "access_token_invalid"); {@code revoked} says the grant is gone and the account needs reconnection;
 * {@code retryable} says a later attempt may succeed (timeouts, 429, 5xx).
 */
public class ProviderException extends RuntimeException {
    private final String code;
    private final boolean revoked;
    private final boolean retryable;

    public ProviderException(String code, String message, boolean revoked, boolean retryable) {
        super(message);
        this.code = code;
        this.revoked = revoked;
        this.retryable = retryable;
    }

    public String code() {
        return code;
    }

    public boolean revoked() {
        return revoked;
    }

    public boolean retryable() {
        return retryable;
    }

    /**
     * The platform's own answer as an account's health keeps it: its code and what it said ({@code invalid_grant:
     * Token has been expired or revoked.}), without the prefix {@link
     * dev.herald.accounts.provider.http.ProviderErrors} puts before it.
     */
    public String reason() {
        String message = getMessage() == null ? "" : getMessage();
        if (code == null) {
            return message;
        }
        int described = message.indexOf(code + " - ");
        if (described >= 0) {
            return code + ": " + message.substring(described + code.length() + 3);
        }
        return message.isBlank() || message.endsWith(": " + code) ? code : code + ": " + message;
    }
}
