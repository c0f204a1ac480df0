package dev.herald.delivery.client;

/**
 * usage-service could not be reached or gave an answer that is neither a yes nor a refusal. Says nothing about
 * the delivery: it is asked again later.
 */
public class UsageServiceUnavailable extends RuntimeException {
    public UsageServiceUnavailable(String what) {
        super("usage-service: " + what);
    }
}
