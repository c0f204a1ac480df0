package dev.herald.usage.rest;

import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.wire.PlanAllowances;
import dev.herald.usage.catalog.Allowances;
import dev.herald.usage.catalog.Plan;
import dev.herald.usage.catalog.PlanCatalog;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Arrays;
import java.util.List;

/**
 * {@code GET /internal/plans}: every plan of the catalog in the caller's mode, cheapest first, so the dashboard can
 * show what the next plan would give. The same allowances {@code GET /usage} reports for a workspace on that plan.
 */
@Path("/internal/plans")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class PlanCatalogResource {
    private final Caller caller;

    public PlanCatalogResource(Caller caller) {
        this.caller = caller;
    }

    @GET
    @NonBlocking // the catalog is in memory
    public DataEnvelope<List<PlanAllowances>> list() {
        return DataEnvelope.of(Arrays.stream(Plan.values()).map(this::wire).toList());
    }

    private PlanAllowances wire(Plan plan) {
        Allowances allowances = PlanCatalog.allowances(plan, caller.mode());
        return new PlanAllowances(
                plan.wireName(),
                allowances.connectedAccounts(),
                allowances.publications(),
                allowances.mediaBytes(),
                allowances.apiRequests(),
                allowances.commentRequests(),
                allowances.newConnections(),
                new PlanAllowances.RateLimit(allowances.requestsPerMinute()),
                allowances.concurrentIngests());
    }
}
