package dev.herald.usage.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.validation.JsonBody;
import dev.herald.usage.service.ConnectedAccountService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code /internal/connected-accounts}: accounts-service takes a slot before an account becomes connected
 * ({@code {"account_id", "new_connection"}}; 201 when taken, 200 when the account already held one,
 * {@code 409 account_limit_reached} or {@code 429 usage_limit_exceeded} otherwise) and frees it on disconnect.
 */
@Cancellable(false)
@Path("/internal/connected-accounts")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class ConnectedAccountResource {
    static final Pattern ACCOUNT_ID = Pattern.compile("^[A-Za-z0-9_-]{1,100}$");

    private final ConnectedAccountService slots;
    private final Caller caller;

    public ConnectedAccountResource(ConnectedAccountService slots, Caller caller) {
        this.slots = slots;
        this.caller = caller;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> connect(JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("account_id", "new_connection"));
        String accountId = body.string("account_id")
                .required()
                .matching(ACCOUNT_ID, "1 to 100 letters, digits, '_' or '-'")
                .read()
                .orNull();
        JsonNode newConnection = json.get("new_connection");
        if (newConnection == null || !newConnection.isBoolean()) {
            body.reject(
                    "new_connection",
                    newConnection == null ? "required" : "invalid_type",
                    "new_connection must be true or false.");
        }
        body.validate();
        return slots.connect(caller.workspaceId(), caller.mode(), accountId, newConnection.booleanValue())
                .map(outcome -> Response.status(outcome.created() ? Response.Status.CREATED : Response.Status.OK)
                        .entity(DataEnvelope.of(outcome.slot()))
                        .build());
    }

    @DELETE
    @Path("/{accountId}")
    public Uni<DataEnvelope<Map<String, Object>>> disconnect(@PathParam("accountId") String accountId) {
        return slots.disconnect(caller.workspaceId(), caller.mode(), accountId)
                .map(done -> DataEnvelope.of(Map.of("account_id", accountId, "connected", false)));
    }
}
