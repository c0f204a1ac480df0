package dev.herald.usage.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.auth.InternalTokens;
import dev.herald.common.auth.Mode;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Runs the read paths once before the service counts as started. The first HQL query of a JVM loads and
 * initialises Hibernate's query translator, which on a busy machine blocked the event loop for seconds and
 * made the gateway's first entitlements call time out. Reads only: nothing is written.
 */
@ApplicationScoped
public class StartupWarmUp {
    private static final Logger LOG = Logger.getLogger(StartupWarmUp.class);
    /** Not a workspace id anyone can have (ids are {@code ws_} + 24 hex characters). */
    static final String WORKSPACE = "ws_warm_up";

    void warmUp(
            @Observes StartupEvent event, UsageService usage, ReservationService reservations, InternalTokens tokens) {
        long started = System.nanoTime();
        try {
            tokens.verifier();
            VertxContextSupport.subscribeAndAwait(() -> usage.usage(WORKSPACE, Mode.LIVE, 0)
                    .flatMap(ignored -> usage.entitlements(WORKSPACE, Mode.LIVE))
                    .flatMap(ignored -> reservations.get(WORKSPACE, Mode.LIVE, "warm-up"))
                    .onFailure(ApiException.class)
                    .recoverWithNull());
            LOG.debugf("warmed up in %d ms", (System.nanoTime() - started) / 1_000_000);
        } catch (Throwable failure) {
            // Not fatal: the first requests are merely slower.
            LOG.warnf("warm-up failed (%s); the first requests may be slow", failure.toString());
        }
    }
}
