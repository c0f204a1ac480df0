package dev.herald.gateway.rest;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.gateway.model.DashboardMember;
import dev.herald.gateway.model.MemberRole;
import dev.herald.gateway.service.DashboardAccess;
import dev.herald.gateway.service.DashboardCaller;
import dev.herald.gateway.service.DashboardRefusal;
import dev.herald.gateway.service.MemberService;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The workspace's members: everyone sees who has access; owners add people (by the email address or the OIDC subject
 * their identity provider vouches for), change roles and remove them. The last owner stays.
 */
@Path("/dashboard/w/{workspace}/{mode}/members")
@Produces(MediaType.TEXT_HTML)
public class DashboardMembersResource {

    /** The add form as sent, and what was wrong with it (field name to message). */
    public record MemberForm(String email, String subject, String role, Map<String, String> errors) {
        static MemberForm empty() {
            return new MemberForm("", "", MemberRole.DEVELOPER.wireName(), Map.of());
        }
    }

    @CheckedTemplate(basePath = "dashboard/members")
    static class Templates {
        static native TemplateInstance list(
                DashboardCaller caller,
                String section,
                List<DashboardMember> members,
                List<String> roles,
                MemberForm form,
                String notice,
                String problem);

        static native TemplateInstance remove(DashboardCaller caller, String section, DashboardMember member);
    }

    private final DashboardAccess access;
    private final DashboardResponses responses;
    private final MemberService members;

    public DashboardMembersResource(DashboardAccess access, DashboardResponses responses, MemberService members) {
        this.access = access;
        this.responses = responses;
        this.members = members;
    }

    @GET
    public Uni<Response> list(@BeanParam WorkspacePage requested, @QueryParam("done") String done) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> render(caller, MemberForm.empty(), notice(done), null)));
    }

    @POST
    public Uni<Response> add(
            @BeanParam WorkspacePage requested,
            @FormParam("csrf") String csrf,
            @FormParam("email") String email,
            @FormParam("subject") String subject,
            @FormParam("role") String role) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    caller.requireOwner("manage the workspace's members.");
                    MemberForm form = validate(email, subject, role);
                    if (!form.errors().isEmpty()) {
                        return render(caller, form, null, null).map(page -> DashboardResponses.page(422, page));
                    }
                    return members.add(
                                    caller.workspaceId(),
                                    blankToNull(form.email()),
                                    blankToNull(form.subject()),
                                    MemberRole.fromWire(form.role()).orElseThrow())
                            .map(member -> DashboardResponses.seeOther(caller.base() + "/members?done=added"))
                            .onFailure(conflict())
                            .recoverWithUni(failure -> render(
                                            caller,
                                            new MemberForm(
                                                    form.email(),
                                                    form.subject(),
                                                    form.role(),
                                                    Map.of("email", failure.getMessage())),
                                            null,
                                            null)
                                    .map(page -> DashboardResponses.page(409, page)));
                }));
    }

    @POST
    @Path("/{member}/role")
    public Uni<Response> changeRole(
            @BeanParam WorkspacePage requested,
            @PathParam("member") String memberId,
            @FormParam("csrf") String csrf,
            @FormParam("role") String role) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    caller.requireOwner("manage the workspace's members.");
                    MemberRole chosen = MemberRole.fromWire(role).orElseThrow(DashboardRefusal::notFound);
                    return members.changeRole(caller.workspaceId(), memberId, chosen)
                            .map(member -> DashboardResponses.seeOther(caller.base() + "/members?done=changed"))
                            .onFailure(conflict())
                            .recoverWithUni(failure -> render(caller, MemberForm.empty(), null, failure.getMessage())
                                    .map(page -> DashboardResponses.page(409, page)));
                }));
    }

    @GET
    @Path("/{member}/remove")
    public Uni<Response> confirmRemove(@BeanParam WorkspacePage requested, @PathParam("member") String memberId) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> {
                    caller.requireOwner("manage the workspace's members.");
                    return members.list(caller.workspaceId())
                            .map(found -> found.stream()
                                    .filter(member -> member.id.equals(memberId))
                                    .findFirst()
                                    .map(member -> Templates.remove(caller, "members", member))
                                    .orElseThrow(DashboardRefusal::notFound));
                }));
    }

    @POST
    @Path("/{member}/remove")
    public Uni<Response> remove(
            @BeanParam WorkspacePage requested, @PathParam("member") String memberId, @FormParam("csrf") String csrf) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    caller.requireOwner("manage the workspace's members.");
                    return members.remove(caller.workspaceId(), memberId)
                            .map(member -> DashboardResponses.seeOther(caller.base() + "/members?done=removed"))
                            .onFailure(conflict())
                            .recoverWithUni(failure -> render(caller, MemberForm.empty(), null, failure.getMessage())
                                    .map(page -> DashboardResponses.page(409, page)));
                }));
    }

    private Uni<TemplateInstance> render(DashboardCaller caller, MemberForm form, String notice, String problem) {
        return members.list(caller.workspaceId())
                .map(found -> Templates.list(caller, "members", found, MemberRole.wireNames(), form, notice, problem));
    }

    private static java.util.function.Predicate<Throwable> conflict() {
        return failure -> failure instanceof ApiException api && api.code() == ErrorCode.CONFLICT;
    }

    private static String notice(String done) {
        if (done == null) {
            return null;
        }
        return switch (done) {
            case "added" -> "Member added. They can sign in now.";
            case "changed" -> "Role changed.";
            case "removed" -> "Member removed. Their access ended at once.";
            default -> null;
        };
    }

    static MemberForm validate(String email, String subject, String role) {
        Map<String, String> errors = new LinkedHashMap<>();
        String trimmedEmail = email == null ? "" : email.strip();
        String trimmedSubject = subject == null ? "" : subject.strip();
        if (!trimmedEmail.isEmpty()
                && (trimmedEmail.length() > 254
                        || !AdminMembersResource.EMAIL.matcher(trimmedEmail).matches())) {
            errors.put("email", "Enter an email address such as dev@example.com.");
        }
        if (trimmedSubject.length() > 255) {
            errors.put("subject", "A subject is at most 255 characters.");
        }
        if (trimmedEmail.isEmpty() && trimmedSubject.isEmpty()) {
            errors.put("email", "Enter the person's email address, their OIDC subject, or both.");
        }
        String chosenRole = role == null ? "" : role;
        if (MemberRole.fromWire(chosenRole).isEmpty()) {
            errors.put("role", "Choose owner, developer or viewer.");
        }
        return new MemberForm(trimmedEmail, trimmedSubject, chosenRole, errors);
    }

    private static String blankToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
