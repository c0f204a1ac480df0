package dev.herald.usage.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.Usage;
import dev.herald.usage.catalog.Plan;
import dev.herald.usage.catalog.PlanSource;
import dev.herald.usage.service.SubscriptionService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code PUT /internal/subscription}: the plan of the internal JWT's workspace and mode (the gateway's admin
 * API calls it). Answers the usage view as {@code GET /usage} would right after the change.
 */
@Cancellable(false)
@Path("/internal/subscription")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class SubscriptionResource {
    private final SubscriptionService subscriptions;
    private final Caller caller;
    private final Clock clock;

    public SubscriptionResource(SubscriptionService subscriptions, Caller caller, Clock clock) {
        this.subscriptions = subscriptions;
        this.caller = caller;
        this.clock = clock;
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<DataEnvelope<Usage>> put(JsonNode json, @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        JsonBody body = JsonBody.of(json, Set.of("plan", "plan_source", "grace_ends_at"));
        Plan plan = BodyFields.oneOf(body, "plan", Plan.values(), Plan::wireName);
        PlanSource source = BodyFields.oneOf(body, "plan_source", PlanSource.values(), PlanSource::wireName);
        Instant graceEndsAt = BodyFields.timestamp(body, "grace_ends_at");
        if (graceEndsAt != null && !graceEndsAt.isAfter(clock.instant())) {
            // A grace that has already ended would lapse the terms at once: a downgrade that skips the renewal.
            body.reject("grace_ends_at", "invalid_value", "grace_ends_at must be in the future.");
        }
        body.validate();
        return subscriptions
                .change(
                        caller.workspaceId(),
                        caller.mode(),
                        plan,
                        source,
                        graceEndsAt,
                        ApiRequestsClaim.read(authorization))
                .map(DataEnvelope::of);
    }
}
