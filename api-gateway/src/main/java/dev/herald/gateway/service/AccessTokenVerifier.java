package dev.herald.gateway.service;

import dev.herald.common.auth.InternalTokens;
import dev.herald.common.auth.Mode;
import dev.herald.common.auth.VerifyKeys;
import dev.herald.gateway.config.OAuthConfig;
import dev.herald.gateway.repository.OAuthClientRepository;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Verifies OAuth 2.0 access tokens: RS256 only (so never {@code alg=none}), issued by this gateway or the
 * configured external issuer, unexpired, and bound to exactly this REST resource (the audience must be the
 * base URL). Workspace, mode and scopes come only from the token's claims. A token of this gateway also
 * needs its client to be active, so deleting a client cuts its tokens off at once. This gateway's own tokens are
 * signed with the internal JWT's key and checked against its key set (common's {@code VerifyKeys}): their
 * {@code kid} must name a key of the set.
 */
@ApplicationScoped
public class AccessTokenVerifier {
    static final String WORKSPACE_CLAIM = "wid";
    static final String MODE_CLAIM = "mode";
    static final String SCOPE_CLAIM = "scope";

    private final OAuthClientRepository clients;
    private final OAuthConfig config;
    private final InternalTokens keys;
    /** The parser of this gateway's own tokens, made again when the key set was read again (a rotation step). */
    private volatile OwnTokens ownTokens;

    private volatile DefaultJWTParser externalTokens;

    public AccessTokenVerifier(OAuthClientRepository clients, OAuthConfig config, InternalTokens keys) {
        this.clients = clients;
        this.config = config;
        this.keys = keys;
    }

    public Uni<Optional<Credential>> verify(String token) {
        VerifyKeys verifyKeys = keys.verifyKeys();
        Optional<JsonWebToken> own =
                verifyKeys.namesOneOf(token) ? parse(ownTokens(verifyKeys), token) : Optional.empty();
        if (own.isPresent()) {
            Optional<Credential> credential = credential(own.get(), own.get().getSubject());
            if (credential.isEmpty()) {
                return Uni.createFrom().item(Optional.empty());
            }
            return clients.findActive(own.get().getSubject())
                    .map(client -> client == null ? Optional.empty() : credential);
        }
        if (config.external().isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        // The external issuer's keys are fetched over the network (then cached): not on the event loop.
        return Uni.createFrom()
                .item(() -> parse(externalTokens(), token)
                        .flatMap(jwt -> credential(jwt, "ext:" + jwt.getIssuer() + ":" + jwt.getSubject())))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private static Optional<JsonWebToken> parse(DefaultJWTParser parser, String token) {
        try {
            return Optional.of(parser.parse(token));
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    private static Optional<Credential> credential(JsonWebToken jwt, String id) {
        Object workspace = jwt.getClaim(WORKSPACE_CLAIM);
        Optional<Mode> mode = Mode.fromWire(jwt.getClaim(MODE_CLAIM));
        Object scope = jwt.getClaim(SCOPE_CLAIM);
        if (!(workspace instanceof String workspaceId) || mode.isEmpty() || id == null) {
            return Optional.empty();
        }
        Set<String> scopes = scope instanceof String text && !text.isBlank()
                ? Arrays.stream(text.trim().split(" +")).collect(Collectors.toUnmodifiableSet())
                : Set.of();
        return Optional.of(new Credential(id, workspaceId, mode.get(), scopes));
    }

    private record OwnTokens(VerifyKeys keys, DefaultJWTParser parser) {}

    private DefaultJWTParser ownTokens(VerifyKeys verifyKeys) {
        OwnTokens known = ownTokens;
        if (known == null || known.keys() != verifyKeys) {
            known = new OwnTokens(verifyKeys, parser(verifyKeys.contextInfo(config.issuer())));
            ownTokens = known;
        }
        return known.parser();
    }

    private DefaultJWTParser externalTokens() {
        if (externalTokens == null) {
            OAuthConfig.External external = config.external().orElseThrow();
            JWTAuthContextInfo info = new JWTAuthContextInfo(external.jwksUrl(), external.issuer());
            externalTokens = parser(info);
        }
        return externalTokens;
    }

    private DefaultJWTParser parser(JWTAuthContextInfo info) {
        info.setExpectedAudience(Set.of(config.resource()));
        info.setSignatureAlgorithm(Set.of(SignatureAlgorithm.RS256));
        // A few seconds of tolerance for the issuer's clock; smallrye-jwt's default is a minute.
        info.setClockSkew(5);
        return new DefaultJWTParser(info);
    }
}
