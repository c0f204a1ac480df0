package dev.herald.delivery.provider;

/**
 * accounts-service could not hand out the account's access before the first platform call of an attempt (it is
 * down, slow, or its circuit is open). Nothing was sent to the platform, so the attempt is given back and the delivery
 * postponed, as when usage-service cannot answer, rather than spent on Herald's own outage.
 */
public class AccessUnavailable extends RuntimeException {
    public AccessUnavailable(Throwable cause) {
        super("the account's access could not be had from accounts-service: " + cause, cause);
    }
}
