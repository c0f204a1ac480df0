package dev.herald.fakes.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.fakes.model.ArmFailureRequest;
import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FailureKind;
import dev.herald.fakes.model.JournalEntry;
import dev.herald.fakes.service.FailurePlan;
import dev.herald.fakes.service.FakeIds;
import dev.herald.fakes.service.FakeJournal;
import dev.herald.fakes.service.FakeProviders;
import dev.herald.fakes.service.IssuedTokens;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The control API of the fakes, for tests and people: what each platform received ({@code /requests}), what it
 * published ({@code /posts}), failures armed for its next requests ({@code /failures}), its tokens expired or
 * revoked at once ({@code /tokens/expire}, {@code /tokens/revoke}), a permission withdrawn from them
 * ({@code /tokens/strip-permission}), and a reset. {@code {platform}} is
 * {@code linkedin}, {@code facebook}, {@code instagram}, {@code pinterest}, {@code tiktok} or {@code youtube}.
 * Answers are {@code {"data": ...}}; refusals {@code {"error": {"code", "message"}}}.
 */
@Path("/_fakes")
@Produces(MediaType.APPLICATION_JSON)
public class ControlResource {
    private static final Pattern METHOD = Pattern.compile("GET|POST|PUT|DELETE");
    private static final int MAX_TIMES = 1000;
    private static final long MAX_DELAY_MS = 600_000;

    private final FakeProviders providers;
    private final FakeJournal journal;
    private final FailurePlan plan;
    private final IssuedTokens tokens;

    public ControlResource(FakeProviders providers, FakeJournal journal, FailurePlan plan, IssuedTokens tokens) {
        this.providers = providers;
        this.journal = journal;
        this.plan = plan;
        this.tokens = tokens;
    }

    /** Every platform's requests in the order received. */
    @GET
    @Path("/requests")
    public Map<String, List<JournalEntry>> allRequests() {
        return Map.of("data", journal.entries(null));
    }

    @GET
    @Path("/{platform}/requests")
    public Map<String, List<JournalEntry>> requests(@PathParam("platform") String platform) {
        return Map.of("data", journal.entries(known(platform)));
    }

    @DELETE
    @Path("/{platform}/requests")
    public Response clearRequests(@PathParam("platform") String platform) {
        journal.clear(known(platform));
        return Response.noContent().build();
    }

    @GET
    @Path("/{platform}/posts")
    public Map<String, List<JsonNode>> posts(@PathParam("platform") String platform) {
        return Map.of("data", providers.fake(known(platform)).published());
    }

    @GET
    @Path("/{platform}/failures")
    public Map<String, List<ArmedFailure>> failures(@PathParam("platform") String platform) {
        return Map.of("data", plan.armed(known(platform)));
    }

    @POST
    @Path("/{platform}/failures")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response arm(@PathParam("platform") String platform, ArmFailureRequest request) {
        known(platform);
        if (request == null || request.kind() == null) {
            throw invalid("kind is required: one of rate_limit, server_error, refuse, expired_token, revoked_token,"
                    + " delay, lost_response, processing_error, deny");
        }
        if (request.method() != null && !METHOD.matcher(request.method()).matches()) {
            throw invalid("method must be GET, POST, PUT or DELETE");
        }
        if (request.path() != null) {
            try {
                Pattern.compile(request.path());
            } catch (PatternSyntaxException e) {
                throw invalid("path is not a valid regular expression: " + e.getDescription());
            }
        }
        int times = request.times() == null ? 1 : request.times();
        if (times < 1 || times > MAX_TIMES) {
            throw invalid("times must be 1 to " + MAX_TIMES);
        }
        if (request.status() != null && (request.status() < 400 || request.status() > 599)) {
            throw invalid("status must be an error status, 400 to 599");
        }
        if (request.delayMs() != null && (request.delayMs() < 0 || request.delayMs() > MAX_DELAY_MS)) {
            throw invalid("delay_ms must be 0 to " + MAX_DELAY_MS);
        }
        if (request.kind() == FailureKind.DELAY && request.delayMs() == null) {
            throw invalid("delay needs delay_ms");
        }
        if (request.kind() == FailureKind.PROCESSING_ERROR
                && !"instagram".equals(platform)
                && !"tiktok".equals(platform)) {
            throw invalid("processing_error applies to Instagram media containers and TikTok video posts only");
        }
        if (request.retryAfterSeconds() != null && request.retryAfterSeconds() < 0) {
            throw invalid("retry_after_seconds must not be negative");
        }
        ArmedFailure failure = plan.arm(new ArmedFailure(
                "flr_" + FakeIds.alphanumeric(12),
                platform,
                request.kind(),
                request.method(),
                request.path(),
                times,
                request.status(),
                request.retryAfterSeconds(),
                request.delayMs()));
        return Response.status(201).entity(Map.of("data", failure)).build();
    }

    @DELETE
    @Path("/{platform}/failures")
    public Response disarm(@PathParam("platform") String platform) {
        plan.disarm(known(platform));
        return Response.noContent().build();
    }

    /** Expires every access token of the platform now; refresh tokens keep working. */
    @POST
    @Path("/{platform}/tokens/expire")
    public Map<String, Map<String, Integer>> expireTokens(@PathParam("platform") String platform) {
        return Map.of("data", Map.of("expired", tokens.expireAll(known(platform))));
    }

    /** Revokes every authorization of the platform now, as users removing the app would. */
    @POST
    @Path("/{platform}/tokens/revoke")
    public Map<String, Map<String, Integer>> revokeTokens(@PathParam("platform") String platform) {
        return Map.of("data", Map.of("revoked", tokens.revokeAll(known(platform))));
    }

    /**
     * Withdraws one permission ({@code {"scope": "..."}}) from every token of the platform now; the platform's reads
     * then answer as it does for a grant without it. Answers how many tokens lost it.
     */
    @POST
    @Path("/{platform}/tokens/strip-permission")
    @Consumes(MediaType.APPLICATION_JSON)
    public Map<String, Map<String, Integer>> stripPermission(
            @PathParam("platform") String platform, Map<String, String> request) {
        known(platform);
        String scope = request == null ? null : request.get("scope");
        if (scope == null || scope.isBlank()) {
            throw invalid("scope is required: the permission to withdraw, as the platform names it");
        }
        return Map.of("data", Map.of("stripped", tokens.stripScope(platform, scope)));
    }

    /** Forgets one platform's posts, tokens, codes, requests and armed failures. */
    @POST
    @Path("/{platform}/reset")
    public Response reset(@PathParam("platform") String platform) {
        providers.reset(known(platform));
        return Response.noContent().build();
    }

    @POST
    @Path("/reset")
    public Response resetAll() {
        providers.reset(null);
        return Response.noContent().build();
    }

    private String known(String platform) {
        if (!providers.knows(platform)) {
            throw new WebApplicationException(Response.status(404)
                    .type(MediaType.APPLICATION_JSON)
                    .entity(Map.of(
                            "error",
                            Map.of(
                                    "code",
                                    "unknown_platform",
                                    "message",
                                    "no fake platform '" + platform + "'; known: "
                                            + String.join(", ", providers.platforms()))))
                    .build());
        }
        return platform;
    }

    private static WebApplicationException invalid(String message) {
        return new WebApplicationException(Response.status(422)
                .type(MediaType.APPLICATION_JSON)
                .entity(Map.of("error", Map.of("code", "invalid_request", "message", message)))
                .build());
    }
}
