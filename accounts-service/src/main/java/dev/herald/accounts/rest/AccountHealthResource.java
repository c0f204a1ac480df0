package dev.herald.accounts.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.service.AccountHealthChecks;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.Account;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code POST /accounts/{id}/health-check}: the account's grant checked now, as the health job would check it, and the
 * account answered with its fresh health. The gateway asks {@code accounts:write} for it: it may change the account's
 * health and send {@code account.*} webhook events, and it calls the platform on the customer's behalf.
 */
@Cancellable(false)
@Path("/accounts")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class AccountHealthResource {
    private final AccountHealthChecks checks;
    private final Caller caller;
    private final ObjectMapper mapper;

    public AccountHealthResource(AccountHealthChecks checks, Caller caller, ObjectMapper mapper) {
        this.checks = checks;
        this.caller = caller;
        this.mapper = mapper;
    }

    @POST
    @Path("/{id}/health-check")
    public Uni<DataEnvelope<Account>> check(@PathParam("id") String id, String body) {
        JsonBody.noFields(body, mapper);
        return checks.checkNow(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }
}
