package dev.herald.usage.catalog;

import dev.herald.usage.config.UsageConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/** Applies {@code herald.usage.plan-overrides} before anything reads the catalog, and says so loudly. */
@ApplicationScoped
public class PlanOverrides {
    private static final Logger LOG = Logger.getLogger(PlanOverrides.class);

    void apply(@Observes @Priority(1) StartupEvent event, UsageConfig config) {
        config.planOverrides().filter(overrides -> !overrides.isBlank()).ifPresent(overrides -> {
            PlanCatalog.override(overrides);
            LOG.warnf("The plan catalog is overridden (%s): for tests and benchmarks only.", overrides);
        });
    }
}
