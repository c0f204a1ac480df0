package dev.herald.common.reactive;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

/**
 * Mutiny callbacks run as written, without SmallRye Context Propagation's wrapper. The wrapper
 * captures the thread contexts when an operator is built and restores them around every callback. The only
 * context left to propagate is Narayana's JTA transaction (the CDI request context's is off:
 * {@code quarkus.arc.context-propagation.enabled=false}), which arrives with {@code quarkus-flyway} and which no
 * service uses: every transaction here is Hibernate Reactive's or a single statement on the Vert.x pool, and what a
 * request needs across callbacks (its request context, logging context and trace) lives on its Vert.x duplicated
 * context. So the wrapper only cost CPU, on every {@code map} and {@code flatMap} of every service. The JTA provider
 * cannot be left out of the build and has no switch, and the decorator is loaded by {@link java.util.ServiceLoader}, so
 * it is dropped here, first thing at start; the interceptors loaded the same way are loaded again as they were.
 */
@ApplicationScoped
public class MutinyContextPropagation {

    void switchOff(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event) {
        Infrastructure.clearInterceptors();
        Infrastructure.reloadUniInterceptors();
        Infrastructure.reloadMultiInterceptors();
    }
}
