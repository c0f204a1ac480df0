package dev.herald.common.auth;

import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Checks an internal JWT's key id, signature, issuer, audience and expiry, and reads the caller from it. The token must
 * name ({@code kid}) one of the {@link VerifyKeys} and be signed with it; a token without {@code kid} is refused.
 *
 * <p>Callers reuse a token for many calls (for half its lifetime), so a token verified once is remembered until
 * it expires: parsing and checking an RS256 signature on every internal call cost about as much CPU as the
 * call's own work. Only the identical string is answered from memory, and its expiry is checked on every use.
 */
public final class InternalTokenVerifier {
    static final String WORKSPACE_CLAIM = "wid";
    static final String MODE_CLAIM = "mode";
    static final String SCOPE_CLAIM = "scope";
    /** Tolerance for clocks of different hosts; smallrye-jwt's default is a minute. */
    static final int CLOCK_SKEW_SECONDS = 5;

    private static final int MAX_REMEMBERED = 10_000;

    private record Verified(InternalToken token, Instant usableUntil) {}

    private final VerifyKeys keys;
    private final DefaultJWTParser parser;
    private final Clock clock;
    private final ConcurrentHashMap<String, Verified> verified = new ConcurrentHashMap<>();

    public InternalTokenVerifier(VerifyKeys keys, String issuer, String audience) {
        this(keys, issuer, audience, Clock.systemUTC());
    }

    InternalTokenVerifier(VerifyKeys keys, String issuer, String audience, Clock clock) {
        this.keys = keys;
        JWTAuthContextInfo info = keys.contextInfo(issuer);
        info.setExpectedAudience(Set.of(audience));
        info.setSignatureAlgorithm(Set.of(SignatureAlgorithm.RS256));
        info.setClockSkew(CLOCK_SKEW_SECONDS);
        this.parser = new DefaultJWTParser(info);
        this.clock = clock;
    }

    /** The caller the token vouches for; empty when the token is missing, forged, expired or malformed. */
    public Optional<InternalToken> verify(String jwt) {
        if (jwt == null || jwt.isBlank()) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        Verified known = verified.get(jwt);
        if (known != null) {
            if (now.isBefore(known.usableUntil())) {
                return Optional.of(known.token());
            }
            verified.remove(jwt);
            return Optional.empty();
        }
        Optional<Verified> checked = parse(jwt);
        checked.ifPresent(entry -> remember(jwt, entry, now));
        return checked.map(Verified::token);
    }

    private void remember(String jwt, Verified entry, Instant now) {
        if (verified.size() >= MAX_REMEMBERED) {
            // Expired entries are dropped when met again; a full map of live ones is simply started afresh.
            verified.values().removeIf(known -> !now.isBefore(known.usableUntil()));
            if (verified.size() >= MAX_REMEMBERED) {
                verified.clear();
            }
        }
        verified.put(jwt, entry);
    }

    private Optional<Verified> parse(String jwt) {
        if (!keys.namesOneOf(jwt)) {
            return Optional.empty();
        }
        try {
            JsonWebToken parsed = parser.parse(jwt);
            String workspace = parsed.getClaim(WORKSPACE_CLAIM);
            Optional<Mode> mode = Mode.fromWire(parsed.getClaim(MODE_CLAIM));
            String scope = parsed.getClaim(SCOPE_CLAIM);
            if (workspace == null || mode.isEmpty() || parsed.getExpirationTime() <= 0) {
                return Optional.empty();
            }
            Set<String> scopes = scope == null || scope.isBlank()
                    ? Set.of()
                    : Arrays.stream(scope.trim().split(" +")).collect(Collectors.toUnmodifiableSet());
            InternalToken token = new InternalToken(workspace, mode.get(), parsed.getSubject(), scopes);
            return Optional.of(new Verified(
                    token, Instant.ofEpochSecond(parsed.getExpirationTime()).plusSeconds(CLOCK_SKEW_SECONDS)));
        } catch (ParseException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
