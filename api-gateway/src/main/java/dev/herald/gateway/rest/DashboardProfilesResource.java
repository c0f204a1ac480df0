package dev.herald.gateway.rest;

import dev.herald.common.wire.Account;
import dev.herald.common.wire.ConnectSession;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Profile;
import dev.herald.common.wire.ReconnectLink;
import dev.herald.gateway.client.MemberApiClient;
import dev.herald.gateway.service.DashboardAccess;
import dev.herald.gateway.service.DashboardCaller;
import dev.herald.gateway.service.DashboardRefusal;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Profiles of a workspace and mode with their accounts, read through the public API, and the hosted connect links an
 * owner creates for a profile (the link lets anyone holding it connect accounts, so only owners may make one).
 */
@Path("/dashboard/w/{workspace}/{mode}/profiles")
@Produces(MediaType.TEXT_HTML)
public class DashboardProfilesResource {
    static final int PAGE_SIZE = 20;
    /** The accounts shown under each profile; the profile's page says when there are more. */
    static final int ACCOUNTS_SHOWN = 100;
    /** An id the API could have issued; anything else cannot name a resource (and must not reach a path). */
    static final Pattern ID = Pattern.compile("^[A-Za-z0-9_]{1,64}$");

    private static final Set<String> LINK_FIELDS = Set.of("platforms", "redirect_url", "expires_in");

    /** A profile with (the first {@link #ACCOUNTS_SHOWN} of) its accounts. */
    public record ProfileRow(Profile profile, List<Account> accounts, boolean moreAccounts) {}

    /** The connect-link form as sent (seconds as typed) and the API's messages by form field. */
    public record LinkForm(Set<String> platforms, String redirectUrl, String expiresIn, Map<String, String> errors) {
        static LinkForm empty() {
            return new LinkForm(Set.of(), "", "3600", Map.of());
        }
    }

    @CheckedTemplate(basePath = "dashboard/profiles")
    static class Templates {
        static native TemplateInstance list(
                DashboardCaller caller, String section, List<ProfileRow> rows, String nextHref);

        static native TemplateInstance detail(
                DashboardCaller caller,
                String section,
                ProfileRow row,
                List<Platform> allPlatforms,
                LinkForm form,
                ConnectSession created,
                ReconnectLink reconnect);
    }

    private final DashboardAccess access;
    private final DashboardResponses responses;
    private final MemberApiClient api;

    public DashboardProfilesResource(DashboardAccess access, DashboardResponses responses, MemberApiClient api) {
        this.access = access;
        this.responses = responses;
        this.api = api;
    }

    @GET
    public Uni<Response> list(@BeanParam WorkspacePage requested, @QueryParam("cursor") String cursor) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> api.list(
                                caller,
                                "/profiles",
                                query("limit", Integer.toString(PAGE_SIZE), "cursor", cursor),
                                Profile.class)
                        .flatMap(page -> withAccounts(caller, page.items())
                                .map(rows -> Templates.list(
                                        caller,
                                        "profiles",
                                        rows,
                                        page.nextCursor() == null
                                                ? null
                                                : caller.base() + "/profiles"
                                                        + MemberApiClient.queryString(
                                                                Map.of("cursor", page.nextCursor())))))));
    }

    @GET
    @Path("/{profile}")
    public Uni<Response> detail(@BeanParam WorkspacePage requested, @PathParam("profile") String profileId) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller ->
                        profile(caller, profileId).map(row -> detailPage(caller, row, LinkForm.empty(), null))));
    }

    /**
     * A fresh reconnect link for one of the profile's accounts (owners only: like a connect link, it lets its holder
     * authorize the account), shown on the profile's page to copy and send to the account's owner.
     */
    @POST
    @Path("/{profile}/accounts/{account}/reconnect-link")
    public Uni<Response> createReconnectLink(
            @BeanParam WorkspacePage requested,
            @PathParam("profile") String profileId,
            @PathParam("account") String accountId,
            @FormParam("csrf") String csrf) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    caller.requireOwner("create reconnect links: anyone holding one can authorize the account.");
                    return profile(caller, profileId).flatMap(row -> {
                        if (row.accounts().stream()
                                .noneMatch(account -> account.id().equals(accountId))) {
                            return Uni.createFrom().failure(DashboardRefusal.notFound());
                        }
                        return api.send(caller, "POST", "/accounts/" + accountId + "/reconnect-link", null)
                                .map(answer -> DashboardResponses.page(
                                        201,
                                        Templates.detail(
                                                caller,
                                                "profiles",
                                                row,
                                                Arrays.asList(Platform.values()),
                                                LinkForm.empty(),
                                                null,
                                                api.data(answer, ReconnectLink.class))));
                    });
                }));
    }

    @POST
    @Path("/{profile}/connect-links")
    public Uni<Response> createLink(
            @BeanParam WorkspacePage requested,
            @PathParam("profile") String profileId,
            @FormParam("csrf") String csrf,
            @FormParam("platform") List<String> platforms,
            @FormParam("redirect_url") String redirectUrl,
            @FormParam("expires_in") String expiresIn) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    caller.requireOwner("create connect links: anyone holding one can connect accounts.");
                    LinkForm form = new LinkForm(
                            new LinkedHashSet<>(platforms == null ? List.of() : platforms),
                            redirectUrl == null ? "" : redirectUrl.strip(),
                            expiresIn == null ? "" : expiresIn.strip(),
                            Map.of());
                    return profile(caller, profileId)
                            .flatMap(row -> api.send(caller, "POST", "/connect-sessions", linkRequest(profileId, form))
                                    .map(answer -> {
                                        if (answer.status() == 422) {
                                            LinkForm refused = new LinkForm(
                                                    form.platforms(),
                                                    form.redirectUrl(),
                                                    form.expiresIn(),
                                                    answer.fieldErrors(LINK_FIELDS));
                                            return DashboardResponses.page(422, detailPage(caller, row, refused, null));
                                        }
                                        ConnectSession created = api.data(answer, ConnectSession.class);
                                        return DashboardResponses.page(
                                                201, detailPage(caller, row, LinkForm.empty(), created));
                                    }));
                }));
    }

    private TemplateInstance detailPage(DashboardCaller caller, ProfileRow row, LinkForm form, ConnectSession created) {
        return Templates.detail(caller, "profiles", row, Arrays.asList(Platform.values()), form, created, null);
    }

    private Uni<ProfileRow> profile(DashboardCaller caller, String profileId) {
        if (!ID.matcher(profileId).matches()) {
            return Uni.createFrom().failure(DashboardRefusal.notFound());
        }
        return api.read(caller, "/profiles/" + profileId, Profile.class).flatMap(profile -> accounts(caller, profile));
    }

    private Uni<List<ProfileRow>> withAccounts(DashboardCaller caller, List<Profile> profiles) {
        if (profiles.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        // One GET /accounts per profile, at once: a page holds at most PAGE_SIZE profiles.
        return Uni.join()
                .all(profiles.stream().map(profile -> accounts(caller, profile)).toList())
                .andFailFast();
    }

    private Uni<ProfileRow> accounts(DashboardCaller caller, Profile profile) {
        return api.list(
                        caller,
                        "/accounts",
                        query("profile_id", profile.id(), "limit", Integer.toString(ACCOUNTS_SHOWN)),
                        Account.class)
                .map(page -> new ProfileRow(profile, page.items(), page.nextCursor() != null));
    }

    /**
     * The API's body: an empty field is left out so the API's default applies (every platform, no redirect, an hour);
     * seconds that are not a whole number are sent as typed, for the API to name the problem.
     */
    static Map<String, Object> linkRequest(String profileId, LinkForm form) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("profile_id", profileId);
        if (!form.platforms().isEmpty()) {
            body.put("platforms", List.copyOf(form.platforms()));
        }
        if (!form.redirectUrl().isEmpty()) {
            body.put("redirect_url", form.redirectUrl());
        }
        if (!form.expiresIn().isEmpty()) {
            body.put("expires_in", wholeNumber(form.expiresIn()));
        }
        return body;
    }

    private static Object wholeNumber(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return text;
        }
    }

    static Map<String, String> query(String... namesAndValues) {
        Map<String, String> query = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            query.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return query;
    }
}
