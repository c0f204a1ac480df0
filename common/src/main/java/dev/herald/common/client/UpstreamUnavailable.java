package dev.herald.common.client;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;

/** Another Herald service could not be reached or answered nonsense: {@code 503}, and worth one more try. */
public class UpstreamUnavailable extends ApiException {
    public UpstreamUnavailable(String service, String what) {
        super(ErrorCode.SERVICE_UNAVAILABLE, service + " is unavailable; try again shortly.");
        // The cause stays in the log, never in the answer.
        org.jboss.logging.Logger.getLogger(UpstreamUnavailable.class).warnf("%s: %s", service, what);
    }
}
