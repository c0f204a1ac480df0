package dev.herald.accounts.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.accounts.repository.AccountFilters;
import dev.herald.accounts.service.AccountAnalyticsService;
import dev.herald.accounts.service.AccountService;
import dev.herald.accounts.service.AnalyticsConsents;
import dev.herald.accounts.service.PlatformReads;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.auth.Caller;
import dev.herald.common.auth.InternalCaller;
import dev.herald.common.paging.Paginated;
import dev.herald.common.validation.FieldValue;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.validation.QueryParameters;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.ReconnectLink;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import java.util.Set;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.Cancellable;

/** {@code /accounts}: social accounts of one workspace and mode, and what can be read from their platforms. */
@Cancellable(false)
@Path("/accounts")
@InternalCaller
@Produces(MediaType.APPLICATION_JSON)
public class AccountResource {
    static final int MAX_NAME_LENGTH = 100;
    static final int MAX_FILTER_LENGTH = 200;
    static final Pattern PROFILE_ID = Pattern.compile("^prf_[a-f0-9]{24}$");
    private static final String PLATFORMS = String.join(
            ", ", Arrays.stream(Platform.values()).map(Platform::wireName).toList());

    private final AccountService accounts;
    private final PlatformReads reads;
    private final AnalyticsConsents consents;
    private final AccountAnalyticsService analytics;
    private final Caller caller;
    private final ObjectMapper mapper;

    public AccountResource(
            AccountService accounts,
            PlatformReads reads,
            AnalyticsConsents consents,
            AccountAnalyticsService analytics,
            Caller caller,
            ObjectMapper mapper) {
        this.accounts = accounts;
        this.reads = reads;
        this.consents = consents;
        this.analytics = analytics;
        this.caller = caller;
        this.mapper = mapper;
    }

    @GET
    @Paginated
    public Uni<ListEnvelope<Account>> list(
            @QueryParam("profile_id") String profileId,
            @QueryParam("platform") String platform,
            @QueryParam("q") String q,
            @QueryParam("health") String health,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        if (profileId != null && !PROFILE_ID.matcher(profileId).matches()) {
            throw ApiException.invalidParameter(
                    "profile_id", "profile_id must be a profile id (prf_ and 24 hex characters).");
        }
        Platform platformFilter = platform == null
                ? null
                : Platform.fromWire(platform)
                        .orElseThrow(() -> ApiException.invalidParameter(
                                "platform", "platform must be one of " + PLATFORMS + "."));
        if (health != null && !AccountHealth.STATUSES.contains(health)) {
            throw ApiException.invalidParameter(
                    "health", "health must be one of " + String.join(", ", AccountHealth.STATUSES) + ".");
        }
        String text = QueryParameters.boundedText("q", q, MAX_FILTER_LENGTH);
        return accounts.list(
                caller.workspaceId(),
                caller.mode(),
                new AccountFilters(profileId, platformFilter, text, health),
                limit,
                cursor);
    }

    /** A sandbox account; test keys only (checked before the body, which a live key has no business sending). */
    @POST
    @TestKeysOnly
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("platform", "profile_id", "name", "username"));
        Platform platform = platform(body);
        // null is the same as leaving a field out (an unassigned account, a generated name), as on every create.
        FieldValue<String> profileId = body.string("profile_id")
                .nullable()
                .matching(PROFILE_ID, "a profile id (prf_ and 24 hex characters)")
                .read();
        FieldValue<String> name = body.string("name")
                .nullable()
                .trimmed()
                .length(1, MAX_NAME_LENGTH)
                .read();
        FieldValue<String> username = body.string("username")
                .nullable()
                .trimmed()
                .length(1, MAX_NAME_LENGTH)
                .read();
        body.validate();
        return accounts.createSandbox(
                        caller.workspaceId(),
                        caller.mode(),
                        platform,
                        profileId.orNull(),
                        name.orNull(),
                        username.orNull())
                .map(account -> Response.status(Response.Status.CREATED)
                        .entity(DataEnvelope.of(account))
                        .build());
    }

    @GET
    @Path("/{id}")
    public Uni<DataEnvelope<Account>> get(@PathParam("id") String id) {
        return accounts.get(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    @PATCH
    @Path("/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<DataEnvelope<Account>> update(@PathParam("id") String id, JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("profile_id"));
        FieldValue<String> profileId = body.string("profile_id")
                .nullable()
                .matching(PROFILE_ID, "a profile id (prf_ and 24 hex characters) or null")
                .read();
        if (profileId.isAbsent() && !json.has("profile_id")) {
            body.reject("profile_id", "required", "profile_id is required (null unassigns the account).");
        }
        body.validate();
        return accounts.reassign(caller.workspaceId(), caller.mode(), id, profileId.orNull())
                .map(DataEnvelope::of);
    }

    @DELETE
    @Path("/{id}")
    public Uni<DataEnvelope<Account>> disconnect(@PathParam("id") String id) {
        return accounts.disconnect(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    /** A fresh reconnect link (7 days) for the account, to hand its owner; no body (absent, empty or {@code {}}). */
    @POST
    @Path("/{id}/reconnect-link")
    public Uni<DataEnvelope<ReconnectLink>> reconnectLink(@PathParam("id") String id, String body) {
        JsonBody.noFields(body, mapper);
        return accounts.reconnectLink(caller.workspaceId(), caller.mode(), id).map(DataEnvelope::of);
    }

    /**
     * Body {@code {"accepted": true, "policy_version": "<current>", "authorization_revision": n?}}: the owner
     * expressly accepted that policy for the account's current authorization; every new authorization clears the
     * receipt.
     */
    @POST
    @Path("/{id}/analytics-consent")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<DataEnvelope<Account>> analyticsConsent(@PathParam("id") String id, JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("accepted", "policy_version", "authorization_revision"));
        JsonNode accepted = json.get("accepted");
        if (accepted == null || accepted.isNull()) {
            body.reject("accepted", "required", "accepted is required and must be true.");
        } else if (!accepted.isBoolean()) {
            body.reject("accepted", "invalid_type", "accepted must be a boolean.");
        } else if (!accepted.booleanValue()) {
            body.reject(
                    "accepted",
                    "invalid_value",
                    "accepted must be true: consent is recorded only once the owner accepts.");
        }
        String policyVersion = body.string("policy_version")
                .required()
                .length(1, MAX_NAME_LENGTH)
                .read()
                .orNull();
        JsonNode revision = json.get("authorization_revision");
        Long authorizationRevision = null;
        if (revision != null && !revision.isNull()) {
            if (!revision.isNumber()) {
                body.reject(
                        "authorization_revision", "invalid_type", "authorization_revision must be a positive integer.");
            } else if (!revision.isIntegralNumber() || !revision.canConvertToLong() || revision.asLong() < 1) {
                body.reject(
                        "authorization_revision",
                        "invalid_value",
                        "authorization_revision must be a positive integer.");
            } else {
                authorizationRevision = revision.asLong();
            }
        }
        body.validate();
        return consents.accept(caller.workspaceId(), caller.mode(), id, policyVersion, authorizationRevision)
                .map(DataEnvelope::of);
    }

    @GET
    @Path("/{id}/publishing-options")
    public Uni<Response> publishingOptions(@PathParam("id") String id) {
        return reads.publishingOptions(caller.workspaceId(), caller.mode(), id)
                .map(read -> read.response(DataEnvelope.of(read.data())));
    }

    @GET
    @Path("/{id}/boards")
    @Paginated
    public Uni<Response> boards(
            @PathParam("id") String id, @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        return reads.boards(caller.workspaceId(), caller.mode(), id, limit, cursor)
                .map(read -> read.response(read.data()));
    }

    @GET
    @Path("/{id}/boards/{boardId}/sections")
    @Paginated
    public Uni<Response> sections(
            @PathParam("id") String id,
            @PathParam("boardId") String boardId,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return reads.sections(caller.workspaceId(), caller.mode(), id, boardId, limit, cursor)
                .map(read -> read.response(read.data()));
    }

    /** The account's audience numbers; a cached answer is free. */
    @GET
    @Path("/{id}/analytics")
    public Uni<Response> analytics(@PathParam("id") String id) {
        return analytics
                .read(caller.workspaceId(), caller.mode(), id)
                .map(read -> read.response(DataEnvelope.of(read.data())));
    }

    private static Platform platform(JsonBody body) {
        String text = body.string("platform").required().read().orNull();
        if (text == null) {
            return null;
        }
        return Platform.fromWire(text).orElseGet(() -> {
            body.reject("platform", "invalid_value", "platform must be one of " + PLATFORMS + ".");
            return null;
        });
    }
}
