package dev.herald.accounts.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.accounts.service.PostingAccounts;
import dev.herald.accounts.service.ProviderAccessTokens;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.time.Timestamps;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.ProviderAccess;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * {@code /internal/accounts}: what other services ask of accounts (the gateway never routes here). The internal
 * JWT's workspace and mode scope every answer.
 */
@Cancellable(false)
@Path("/internal/accounts")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class InternalAccountResource {
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

    private final PostingAccounts postingAccounts;
    private final ProviderAccessTokens accessTokens;
    private final Caller caller;

    public InternalAccountResource(PostingAccounts postingAccounts, ProviderAccessTokens accessTokens, Caller caller) {
        this.postingAccounts = postingAccounts;
        this.accessTokens = accessTokens;
        this.caller = caller;
    }

    /**
     * Body {@code {"ids": [1 to 100 strings], "scheduled_at": "<RFC 3339>"}}: answers {@code {"data": [AccountForPosting]}}
     * for the ids that are accounts of the caller's workspace and mode, in the order asked; the others are absent.
     * {@code scheduled_at} (optional: a scheduled post's due time) books a check of each live account ahead of it.
     */
    @POST
    @Path("/lookup")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<DataEnvelope<List<AccountForPosting>>> lookup(JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("ids", "scheduled_at"));
        List<String> ids = readIds(body, json.get("ids"));
        String scheduled = body.string("scheduled_at").nullable().read().orNull();
        Instant scheduledAt =
                scheduled == null ? null : Timestamps.parseRfc3339(scheduled).orElse(null);
        if (scheduled != null && scheduledAt == null) {
            body.reject("scheduled_at", "invalid_format", "scheduled_at must be an RFC 3339 timestamp.");
        }
        body.validate();
        return postingAccounts
                .lookup(caller.workspaceId(), caller.mode(), ids, scheduledAt)
                .map(DataEnvelope::of);
    }

    /**
     * Body {@code {"rejected_token_sha256": "<hex>"}} (optional field): answers {@code {"data": ProviderAccess}}, a token
     * refreshed first when it is about to expire or is the one the platform just refused. Errors as
     * {@link ProviderAccessTokens#current} says.
     */
    @POST
    @Path("/{id}/access-token")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<DataEnvelope<ProviderAccess>> accessToken(@PathParam("id") String id, JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("rejected_token_sha256"));
        String rejected = body.string("rejected_token_sha256")
                .matching(SHA256_HEX, "64 lower-case hex digits")
                .read()
                .orNull();
        body.validate();
        return accessTokens
                .current(caller.workspaceId(), caller.mode(), id, rejected)
                .map(DataEnvelope::of);
    }

    private static List<String> readIds(JsonBody body, JsonNode value) {
        if (value == null || value.isNull()) {
            body.reject("ids", "required", "ids is required.");
            return List.of();
        }
        if (!value.isArray()) {
            body.reject("ids", "invalid_type", "ids must be an array of account ids.");
            return List.of();
        }
        if (value.isEmpty()) {
            body.reject("ids", "too_short", "ids must name at least one account.");
            return List.of();
        }
        if (value.size() > AccountForPosting.MAX_IDS) {
            body.reject("ids", "too_long", "ids must name at most " + AccountForPosting.MAX_IDS + " accounts.");
            return List.of();
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            JsonNode id = value.get(i);
            if (!id.isTextual()) {
                body.reject("ids[" + i + "]", "invalid_type", "ids[" + i + "] must be a string.");
            } else {
                ids.add(id.textValue());
            }
        }
        return ids;
    }
}
