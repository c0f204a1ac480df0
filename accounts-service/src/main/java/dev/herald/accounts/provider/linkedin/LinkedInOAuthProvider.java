package dev.herald.accounts.provider.linkedin;

import static dev.herald.accounts.provider.http.TokenResponses.text;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.ProviderIdentity;
import dev.herald.accounts.provider.http.ConfiguredOAuthProvider;
import dev.herald.accounts.provider.http.ProviderCredentials;
import dev.herald.accounts.provider.http.ProviderErrors;
import dev.herald.accounts.provider.http.ProviderHttpClient;
import dev.herald.accounts.provider.http.ProviderResponse;
import dev.herald.accounts.provider.http.TokenResponses;
import dev.herald.common.wire.Platform;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * LinkedIn members and the organizations they administer.
 * <ul>
 * <li>Authorization code flow (https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow):
 * {@code /oauth/v2/authorization}, {@code /oauth/v2/accessToken} (also for refresh, which LinkedIn grants only to
 * approved partners: without a refresh token the grant lasts its 60 days), {@code /oauth/v2/revoke}.</li>
 * <li>The member from OpenID Connect's userinfo
 * (https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2);
 * its {@code sub} is the person id, so the member's id is {@code urn:li:person:<sub>}.</li>
 * <li>Administered organizations from {@code /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED}
 * and their names from {@code /rest/organizations/{id}}
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-access-control-by-role),
 * versioned with the {@code LinkedIn-Version} header and Rest.li protocol 2.0.0; only asked when the grant
 * includes an organization scope.</li>
 * </ul>
 */
@ApplicationScoped
public class LinkedInOAuthProvider extends ConfiguredOAuthProvider {
    private static final Set<String> ORGANIZATION_SCOPES = Set.of("r_organization_admin", "rw_organization_admin");
    private static final String ORGANIZATION_URN = "urn:li:organization:";

    private final ProvidersConfig.LinkedIn config;

    public LinkedInOAuthProvider(ProvidersConfig config, ProviderHttpClient http) {
        super(Platform.LINKEDIN, config.linkedin(), http);
        this.config = config.linkedin();
    }

    @Override
    protected String scopeSeparator() {
        return " ";
    }

    @Override
    public Uni<ProviderGrant> exchangeCode(String code, String codeVerifier, URI redirectUri) {
        return Uni.createFrom()
                .deferred(() -> requestToken(
                        config.oauthUrl() + "/accessToken",
                        codeForm(code, null, redirectUri),
                        Map.of(),
                        null,
                        TokenResponses::idTokenSubject));
    }

    @Override
    public Uni<ProviderGrant> refresh(ProviderGrant grant) {
        return refreshAt(config.oauthUrl() + "/accessToken", Map.of(), grant, this::refreshForm);
    }

    @Override
    public Uni<Void> revoke(ProviderGrant grant) {
        return tokenRequest("/revoke", grant).replaceWithVoid();
    }

    /**
     * A request about the grant's access token to an OAuth endpoint that takes the client's credentials in the form
     * ({@code /revoke}, {@code /introspectToken}); a refusal fails as an RFC 6749 error.
     */
    private Uni<ProviderResponse> tokenRequest(String endpoint, ProviderGrant grant) {
        return Uni.createFrom().deferred(() -> {
            ProviderCredentials credentials = credentials();
            return http.postForm(
                            config.oauthUrl() + endpoint,
                            Map.of(
                                    "client_id",
                                    credentials.clientId(),
                                    "client_secret",
                                    credentials.clientSecret(),
                                    "token",
                                    grant.accessToken()),
                            Map.of())
                    .map(response -> {
                        if (!response.ok()) {
                            throw ProviderErrors.oauth(platform(), response, false);
                        }
                        return response;
                    });
        });
    }

    @Override
    public Uni<List<ProviderIdentity>> identities(ProviderGrant grant) {
        Uni<ProviderIdentity> member = http.get(
                        config.apiUrl() + "/v2/userinfo", Map.of(), ProviderHttpClient.bearer(grant.accessToken()))
                .map(response -> {
                    JsonObject userinfo = ok(response);
                    String sub = text(userinfo, "sub");
                    if (sub == null) {
                        throw ProviderErrors.malformed(platform(), "the member's sub");
                    }
                    return new ProviderIdentity("urn:li:person:" + sub, "member", text(userinfo, "name"), null, null);
                });
        boolean administers = grant.scopes() != null && grant.scopes().stream().anyMatch(ORGANIZATION_SCOPES::contains);
        if (!administers) {
            return member.map(List::of);
        }
        return member.flatMap(person -> organizations(grant.accessToken()).map(organizations -> {
            List<ProviderIdentity> all = new ArrayList<>();
            all.add(person);
            all.addAll(organizations);
            return List.copyOf(all);
        }));
    }

    private Uni<List<ProviderIdentity>> organizations(String accessToken) {
        return http.get(
                        config.apiUrl() + "/rest/organizationAcls",
                        Map.of("q", "roleAssignee", "role", "ADMINISTRATOR", "state", "APPROVED", "count", "100"),
                        restHeaders(accessToken))
                .map(response -> {
                    JsonArray elements = ok(response).getJsonArray("elements", new JsonArray());
                    Set<String> ids = new LinkedHashSet<>();
                    for (int i = 0; i < elements.size(); i++) {
                        String organization = elements.getJsonObject(i).getString("organization");
                        if (organization != null && organization.startsWith(ORGANIZATION_URN)) {
                            ids.add(organization.substring(ORGANIZATION_URN.length()));
                        }
                    }
                    return List.copyOf(ids);
                })
                // One lookup per organization, in order; members administer a handful at most.
                .flatMap(ids -> Multi.createFrom()
                        .iterable(ids)
                        .onItem()
                        .transformToUniAndConcatenate(id -> organization(accessToken, id))
                        .collect()
                        .asList());
    }

    private Uni<ProviderIdentity> organization(String accessToken, String id) {
        return http.get(config.apiUrl() + "/rest/organizations/" + id, Map.of(), restHeaders(accessToken))
                .map(response -> {
                    JsonObject organization = ok(response);
                    return new ProviderIdentity(
                            ORGANIZATION_URN + id,
                            "organization",
                            text(organization, "localizedName"),
                            text(organization, "vanityName"),
                            null);
                });
    }

    private Map<String, String> restHeaders(String accessToken) {
        Map<String, String> headers = new HashMap<>(ProviderHttpClient.bearer(accessToken));
        headers.put("LinkedIn-Version", config.apiVersion());
        headers.put("X-Restli-Protocol-Version", "2.0.0");
        return headers;
    }

    /** LinkedIn API errors: {@code {"status", "serviceErrorCode", "code", "message"}}; 401 is a dead token. */
    private JsonObject ok(ProviderResponse response) {
        if (!response.ok()) {
            JsonObject body = response.json();
            String code = body.getValue("code") instanceof String text ? text : null;
            throw ProviderErrors.api(
                    platform(), response, code, body.getValue("message") instanceof String m ? m : null);
        }
        return response.json();
    }

    /**
     * LinkedIn's token introspection ({@code POST /oauth/v2/introspectToken} with the client's credentials,
     * https://learn.microsoft.com/en-us/linkedin/shared/authentication/token-introspection): {@code active} false
     * (status {@code revoked} or {@code expired}) is definitive, and so is a scope list without the one the account
     * publishes with ({@code w_member_social} for a member, {@code w_organization_social} for an organization).
     */
    @Override
    public Uni<Void> check(ProviderGrant grant, String externalId) {
        return tokenRequest("/introspectToken", grant).map(response -> {
            JsonObject token = response.json();
            if (!token.getBoolean("active", false)) {
                String status = text(token, "status") != null ? text(token, "status") : "inactive";
                throw ProviderErrors.exception(
                        platform(), "token_" + status, "the access token is " + status, 200, true, false);
            }
            String needed = externalId.startsWith(ORGANIZATION_URN) ? "w_organization_social" : "w_member_social";
            if (!TokenResponses.scopes(token.getValue("scope")).contains(needed)) {
                throw ProviderErrors.permissionMissing(platform(), needed);
            }
            return null;
        });
    }
}
