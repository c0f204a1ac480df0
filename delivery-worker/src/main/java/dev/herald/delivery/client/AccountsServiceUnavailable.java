package dev.herald.delivery.client;

/**
 * accounts-service could not be reached or gave an answer that is neither an access nor a refusal. Says nothing
 * about the account: the delivery attempt fails retryably.
 */
public class AccountsServiceUnavailable extends RuntimeException {
    public AccountsServiceUnavailable(String what) {
        super("accounts-service: " + what);
    }
}
