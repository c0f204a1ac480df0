package dev.herald.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.api.ListMeta;
import dev.herald.common.validation.FieldValue;
import dev.herald.common.validation.JsonBody;
import dev.herald.common.wire.AdminMember;
import dev.herald.common.wire.AdminSignInLink;
import dev.herald.gateway.config.DashboardConfig;
import dev.herald.gateway.model.DashboardMember;
import dev.herald.gateway.model.MemberRole;
import dev.herald.gateway.service.MemberService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.Cancellable;

/**
 * The admin API's dashboard members ({@code /admin/v1/workspaces/{id}/members}): who may sign in to a workspace's
 * dashboard, by email or OIDC subject, and with which role; and one-time sign-in links for them.
 */
@Cancellable(false)
@Path("/admin/v1/workspaces/{workspace}/members")
@AdminAuthenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AdminMembersResource {
    /** Deliberately loose (one @, no spaces): the identity provider, not Herald, decides which addresses exist. */
    static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+$");

    static final Pattern ROLE = Pattern.compile("^(owner|developer|viewer)$");

    private final MemberService members;
    private final String publicBase;

    public AdminMembersResource(MemberService members, DashboardConfig config) {
        this.members = members;
        this.publicBase = config.publicUrl().toString().replaceAll("/+$", "");
    }

    @GET
    public Uni<ListEnvelope<AdminMember>> list(@PathParam("workspace") String workspaceId) {
        return members.list(workspaceId)
                .map(found -> new ListEnvelope<>(
                        found.stream().map(AdminMembersResource::toWire).toList(), new ListMeta(null, false)));
    }

    @POST
    public Uni<Response> add(@PathParam("workspace") String workspaceId, JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("email", "subject", "role"));
        FieldValue<String> email = body.string("email")
                .nullable()
                .trimmed()
                .length(3, 254)
                .matching(EMAIL, "an email address")
                .read();
        FieldValue<String> subject =
                body.string("subject").nullable().length(1, 255).read();
        FieldValue<String> role = body.string("role")
                .required()
                .matching(ROLE, "owner, developer or viewer")
                .read();
        if (email.orNull() == null && subject.orNull() == null && !body.hasErrors()) {
            body.reject("email", "required", "email or subject is required: the member is named by one or both.");
        }
        body.validate();
        return members.add(
                        workspaceId,
                        email.orNull(),
                        subject.orNull(),
                        MemberRole.fromWire(role.orNull()).orElseThrow())
                .map(member -> Response.status(201)
                        .entity(DataEnvelope.of(toWire(member)))
                        .build());
    }

    @PATCH
    @Path("/{member}")
    public Uni<DataEnvelope<AdminMember>> changeRole(
            @PathParam("workspace") String workspaceId, @PathParam("member") String memberId, JsonNode json) {
        JsonBody body = JsonBody.of(json, Set.of("role"));
        FieldValue<String> role = body.string("role")
                .required()
                .matching(ROLE, "owner, developer or viewer")
                .read();
        body.validate();
        return members.changeRole(
                        workspaceId,
                        memberId,
                        MemberRole.fromWire(role.orNull()).orElseThrow())
                .map(member -> DataEnvelope.of(toWire(member)));
    }

    @DELETE
    @Path("/{member}")
    public Uni<DataEnvelope<AdminMember>> remove(
            @PathParam("workspace") String workspaceId, @PathParam("member") String memberId) {
        return members.remove(workspaceId, memberId).map(member -> DataEnvelope.of(toWire(member)));
    }

    /** A one-time link that signs the member in (for operators without an identity provider, and for support). */
    @POST
    @Path("/{member}/sign-in-links")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> signInLink(@PathParam("workspace") String workspaceId, @PathParam("member") String memberId) {
        return members.issueSignInLink(workspaceId, memberId)
                .map(issued -> Response.status(201)
                        .entity(DataEnvelope.of(new AdminSignInLink(
                                issued.member().id,
                                publicBase + "/dashboard/sign-in/" + issued.token(),
                                issued.expiresAt())))
                        .build());
    }

    static AdminMember toWire(DashboardMember member) {
        return new AdminMember(
                member.id, member.workspaceId, member.email, member.subject, member.role.wireName(), member.createdAt);
    }
}
