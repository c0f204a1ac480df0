package dev.herald.fakes.service;

import dev.herald.fakes.model.IssuedGrant;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The access and refresh tokens the fake platforms issued. A token the fake did not issue, or one expired or
 * revoked, is refused by the platform in its own error shape; revoking any token of an authorization revokes
 * every token of it (as a user removing the app does).
 */
@ApplicationScoped
public class IssuedTokens {
    /** What a presented token is. */
    public enum State {
        VALID,
        EXPIRED,
        REVOKED,
        UNKNOWN
    }

    private final Map<String, IssuedGrant> tokens = new ConcurrentHashMap<>();
    private final Set<String> revokedGrants = ConcurrentHashMap.newKeySet();

    /** A new access token; {@code lifetime} null for one that does not expire (Meta's Page tokens). */
    public String issueAccess(
            String platform, String grantId, String subject, Set<String> scopes, Duration lifetime, String token) {
        tokens.put(
                key(platform, token),
                new IssuedGrant(
                        platform,
                        grantId,
                        subject,
                        Set.copyOf(scopes),
                        lifetime == null ? null : Instant.now().plus(lifetime),
                        false));
        return token;
    }

    public String issueRefresh(
            String platform, String grantId, String subject, Set<String> scopes, Duration lifetime, String token) {
        tokens.put(
                key(platform, token),
                new IssuedGrant(
                        platform,
                        grantId,
                        subject,
                        Set.copyOf(scopes),
                        lifetime == null ? null : Instant.now().plus(lifetime),
                        true));
        return token;
    }

    public State state(String platform, String token, boolean refresh) {
        IssuedGrant grant = token == null ? null : tokens.get(key(platform, token));
        if (grant == null || grant.refreshToken() != refresh) {
            return State.UNKNOWN;
        }
        if (revokedGrants.contains(grant.grantId())) {
            return State.REVOKED;
        }
        return grant.expired(Instant.now()) ? State.EXPIRED : State.VALID;
    }

    /** The grant behind a token (valid or not), or null for a token never issued. */
    public IssuedGrant grant(String platform, String token) {
        return token == null ? null : tokens.get(key(platform, token));
    }

    /** A rotated-out refresh token can no longer be used. */
    public void retire(String platform, String token) {
        tokens.remove(key(platform, token));
    }

    public void expire(String platform, String token) {
        tokens.computeIfPresent(
                key(platform, token),
                (key, grant) -> grant.expiringAt(Instant.now().minusSeconds(1)));
    }

    public void revokeGrant(String grantId) {
        revokedGrants.add(grantId);
    }

    /** Expires every access token of the platform (refresh tokens stay usable). */
    public int expireAll(String platform) {
        int[] count = {0};
        tokens.replaceAll((key, grant) -> {
            if (grant.platform().equals(platform) && !grant.refreshToken() && !grant.expired(Instant.now())) {
                count[0]++;
                return grant.expiringAt(Instant.now().minusSeconds(1));
            }
            return grant;
        });
        return count[0];
    }

    /**
     * Withdraws one permission from every authorization of the platform, its refresh tokens included (so a refreshed
     * token does not bring it back), as a user unticking it in the platform's settings would.
     */
    public int stripScope(String platform, String scope) {
        int[] count = {0};
        tokens.replaceAll((key, grant) -> {
            if (grant.platform().equals(platform) && grant.scopes().contains(scope)) {
                count[0]++;
                return grant.withoutScope(scope);
            }
            return grant;
        });
        return count[0];
    }

    /** Revokes every authorization of the platform. */
    public int revokeAll(String platform) {
        int before = revokedGrants.size();
        tokens.values().stream()
                .filter(grant -> grant.platform().equals(platform))
                .forEach(grant -> revokedGrants.add(grant.grantId()));
        return revokedGrants.size() - before;
    }

    public void clear(String platform) {
        tokens.entrySet()
                .removeIf(
                        entry -> platform == null || entry.getValue().platform().equals(platform));
        if (platform == null) {
            revokedGrants.clear();
        }
    }

    private static String key(String platform, String token) {
        return platform + " " + token;
    }
}
