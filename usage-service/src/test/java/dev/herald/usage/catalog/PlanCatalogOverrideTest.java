package dev.herald.usage.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.common.auth.Mode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PlanCatalogOverrideTest {
    @AfterEach
    void restoreTheCatalog() {
        PlanCatalog.override("free.api_requests=2000");
    }

    @Test
    void overridesReplaceOnlyTheNamedValues() {
        PlanCatalog.override("starter.api_requests=5, scale.per_minute=100000");
        assertThat(PlanCatalog.allowances(Plan.STARTER, Mode.LIVE).apiRequests())
                .isEqualTo(5);
        assertThat(PlanCatalog.allowances(Plan.STARTER, Mode.LIVE).requestsPerMinute())
                .isEqualTo(60);
        assertThat(PlanCatalog.allowances(Plan.SCALE, Mode.LIVE).requestsPerMinute())
                .isEqualTo(100_000);
        assertThat(PlanCatalog.allowances(Plan.SCALE, Mode.TEST).requestsPerMinute())
                .isEqualTo(100_000);
        assertThat(PlanCatalog.allowances(Plan.FREE, Mode.LIVE).apiRequests()).isEqualTo(2_000);
    }

    @Test
    void aMalformedOverrideIsRefused() {
        assertThatThrownBy(() -> PlanCatalog.override("starter=5")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PlanCatalog.override("gold.api_requests=5"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PlanCatalog.override("free.rockets=5")).isInstanceOf(IllegalArgumentException.class);
    }
}
