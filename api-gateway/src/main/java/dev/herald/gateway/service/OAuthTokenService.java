package dev.herald.gateway.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.auth.InternalTokens;
import dev.herald.common.auth.Mode;
import dev.herald.common.auth.Scopes;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.time.Timestamps;
import dev.herald.gateway.config.OAuthConfig;
import dev.herald.gateway.model.OAuthClient;
import dev.herald.gateway.repository.OAuthClientRepository;
import dev.herald.gateway.repository.WorkspaceRepository;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;

/** OAuth clients and the client_credentials grant (RFC 6749 section 4.4, with RFC 8707 resource binding). */
@ApplicationScoped
public class OAuthTokenService {
    static final String SECRET_PREFIX = "hcs_";

    private final OAuthClientRepository clients;
    private final WorkspaceRepository workspaces;
    private final InternalTokens keys;
    private final OAuthConfig config;
    private final Clock clock;

    public OAuthTokenService(
            OAuthClientRepository clients,
            WorkspaceRepository workspaces,
            InternalTokens keys,
            OAuthConfig config,
            Clock clock) {
        this.clients = clients;
        this.workspaces = workspaces;
        this.keys = keys;
        this.config = config;
        this.clock = clock;
    }

    /** A created client with the only copy of its secret. */
    public record IssuedClient(OAuthClient client, String secret) {}

    /** A granted token, as the token endpoint answers it. */
    public record AccessToken(String accessToken, String tokenType, long expiresIn, String scope) {}

    /** A refusal in RFC 6749 section 5.2 terms. */
    public static class OAuthError extends RuntimeException {
        private final int status;
        private final String error;

        public OAuthError(int status, String error, String description) {
            super(description, null, false, false);
            this.status = status;
            this.error = error;
        }

        public int status() {
            return status;
        }

        public String error() {
            return error;
        }
    }

    @WithTransaction
    public Uni<IssuedClient> createClient(String workspaceId, Mode mode, Set<String> scopes, String name) {
        return workspaces
                .findById(workspaceId)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("workspace"))
                .flatMap(workspace -> {
                    String secret = SECRET_PREFIX + ApiKeySecrets.randomBase62(40);
                    OAuthClient client = new OAuthClient();
                    client.id = ResourceIds.newId(IdPrefix.OAUTH_CLIENT);
                    client.workspaceId = workspaceId;
                    client.mode = mode;
                    client.secretHash = ApiKeySecrets.hash(secret);
                    client.scopes = String.join(" ", new TreeSet<>(scopes));
                    client.name = name;
                    client.createdAt = Timestamps.now(clock);
                    return clients.persist(client).map(saved -> new IssuedClient(saved, secret));
                });
    }

    @WithTransaction
    public Uni<OAuthClient> revokeClient(String clientId) {
        return clients.findById(clientId)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("OAuth client"))
                .invoke(client -> {
                    if (client.revokedAt == null) {
                        client.revokedAt = Timestamps.now(clock);
                    }
                });
    }

    /**
     * The client_credentials grant. {@code resource} defaults to the REST base URL and otherwise must equal
     * it exactly; {@code scope} defaults to all of the client's scopes and may only narrow them.
     */
    public Uni<AccessToken> grant(
            String grantType, String clientId, String clientSecret, String resource, String scope) {
        if (clientId == null || clientSecret == null) {
            return Uni.createFrom()
                    .failure(new OAuthError(401, "invalid_client", "Client authentication is required."));
        }
        if (grantType == null) {
            return Uni.createFrom().failure(new OAuthError(400, "invalid_request", "grant_type is required."));
        }
        if (!grantType.equals("client_credentials")) {
            return Uni.createFrom()
                    .failure(new OAuthError(400, "unsupported_grant_type", "Only client_credentials is supported."));
        }
        if (resource != null && !resource.equals(config.resource())) {
            return Uni.createFrom()
                    .failure(new OAuthError(
                            400, "invalid_target", "resource must be exactly " + config.resource() + "."));
        }
        return clients.findActive(clientId).map(client -> {
            if (client == null
                    || !MessageDigest.isEqual(
                            client.secretHash.getBytes(StandardCharsets.UTF_8),
                            ApiKeySecrets.hash(clientSecret).getBytes(StandardCharsets.UTF_8))) {
                throw new OAuthError(401, "invalid_client", "Unknown client or wrong secret.");
            }
            Set<String> granted = grantedScopes(client.scopeSet(), scope);
            Instant now = clock.instant();
            String jwt = Jwt.issuer(config.issuer())
                    .audience(config.resource())
                    .subject(client.id)
                    .claim(AccessTokenVerifier.WORKSPACE_CLAIM, client.workspaceId)
                    .claim(AccessTokenVerifier.MODE_CLAIM, client.mode.wireName())
                    .claim(AccessTokenVerifier.SCOPE_CLAIM, String.join(" ", granted))
                    .issuedAt(now)
                    .expiresAt(now.plus(config.tokenLifetime()))
                    .jws()
                    .keyId(keys.signingKeyId())
                    .algorithm(io.smallrye.jwt.algorithm.SignatureAlgorithm.RS256)
                    .sign(keys.signingKey());
            return new AccessToken(jwt, "Bearer", config.tokenLifetime().toSeconds(), String.join(" ", granted));
        });
    }

    private static Set<String> grantedScopes(Set<String> clientScopes, String requested) {
        if (requested == null || requested.isBlank()) {
            return new TreeSet<>(clientScopes);
        }
        Set<String> asked = new LinkedHashSet<>(Arrays.asList(requested.trim().split(" +")));
        for (String scope : asked) {
            if (!Scopes.ALL.contains(scope) || !clientScopes.contains(scope)) {
                throw new OAuthError(400, "invalid_scope", "The client may not request " + scope + ".");
            }
        }
        return new TreeSet<>(asked);
    }
}
