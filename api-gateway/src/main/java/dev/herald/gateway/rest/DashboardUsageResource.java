package dev.herald.gateway.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.PlanAllowances;
import dev.herald.common.wire.Usage;
import dev.herald.gateway.client.ApiAnswer;
import dev.herald.gateway.client.MemberApiClient;
import dev.herald.gateway.repository.RequestLogStatements;
import dev.herald.gateway.service.DashboardAccess;
import dev.herald.gateway.service.DashboardCaller;
import dev.herald.gateway.service.DashboardRefusal;
import dev.herald.gateway.service.PlanCatalogCache;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The dashboard's landing page: the plan and every meter of {@code GET /usage} for the period, the logged API
 * requests per day, and what the next plan of the catalog would give.
 */
@Path("/dashboard/w/{workspace}/{mode}/usage")
@Produces(MediaType.TEXT_HTML)
public class DashboardUsageResource {
    private static final Logger LOG = Logger.getLogger(DashboardUsageResource.class);

    @CheckedTemplate(basePath = "dashboard/usage")
    static class Templates {
        static native TemplateInstance usage(DashboardCaller caller, String section, UsagePage page);
    }

    private final DashboardAccess access;
    private final DashboardResponses responses;
    private final MemberApiClient api;
    private final RequestLogStatements logs;
    private final PlanCatalogCache plans;
    private final ObjectMapper mapper;
    private final Clock clock;

    public DashboardUsageResource(
            DashboardAccess access,
            DashboardResponses responses,
            MemberApiClient api,
            RequestLogStatements logs,
            PlanCatalogCache plans,
            ObjectMapper mapper,
            Clock clock) {
        this.access = access;
        this.responses = responses;
        this.api = api;
        this.logs = logs;
        this.plans = plans;
        this.mapper = mapper;
        this.clock = clock;
    }

    @GET
    public Uni<Response> usage(@BeanParam WorkspacePage requested) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> api.get(caller, "/usage", Map.of())
                        .map(this::usage)
                        .flatMap(usage -> Uni.combine()
                                .all()
                                .unis(
                                        logs.requestsPerDay(
                                                caller.workspaceId(),
                                                caller.mode(),
                                                usage.period().start()),
                                        catalog(caller))
                                .with((perDay, catalog) -> UsagePage.of(
                                        usage, perDay, LocalDate.now(clock.withZone(ZoneOffset.UTC)), catalog)))
                        .map(page -> Templates.usage(caller, "usage", page))));
    }

    private Usage usage(ApiAnswer answer) {
        if (!answer.ok()) {
            LOG.warnf("GET /usage answered %d for the dashboard", answer.status());
            throw DashboardRefusal.unavailable();
        }
        try {
            return mapper.treeToValue(answer.data(), Usage.class);
        } catch (Exception e) {
            throw new IllegalStateException("unreadable GET /usage answer", e);
        }
    }

    /** The plan comparison is an extra: without the catalog the page still shows the usage. */
    private Uni<List<PlanAllowances>> catalog(DashboardCaller caller) {
        return plans.plans(caller.workspaceId(), caller.mode()).onFailure().recoverWithItem(failure -> {
            LOG.warnf("plan catalog unavailable for the usage page: %s", failure.toString());
            return List.of();
        });
    }
}
