package dev.herald.common.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InternalTokenVerifierTest {
    private static final KeyPair KEYS = RsaKeys.generate();
    private final InternalToken caller =
            new InternalToken("ws_1", Mode.LIVE, "key_1", Set.of("profiles:read", "posts:write"));
    private final InternalTokenVerifier verifier = new InternalTokenVerifier(
            RsaKeys.readPublicKey(RsaKeys.publicKeyPem(KEYS.getPublic())), "herald-gateway", "herald-services");

    private static InternalTokenIssuer issuer(KeyPair keys, String issuer, String audience, Clock clock) {
        return new InternalTokenIssuer(
                RsaKeys.readPrivateKey(RsaKeys.privateKeyPem(keys.getPrivate())),
                issuer,
                audience,
                Duration.ofSeconds(60),
                clock);
    }

    @Test
    void readsBackTheCallerItWasIssuedFor() {
        String jwt = issuer(KEYS, "herald-gateway", "herald-services", Clock.systemUTC())
                .issue(caller);
        assertThat(verifier.verify(jwt)).contains(caller);
    }

    @Test
    void refusesAnotherKeyIssuerAudienceOrAnExpiredToken() {
        assertThat(verifier.verify(issuer(RsaKeys.generate(), "herald-gateway", "herald-services", Clock.systemUTC())
                        .issue(caller)))
                .isEmpty();
        assertThat(verifier.verify(issuer(KEYS, "someone-else", "herald-services", Clock.systemUTC())
                        .issue(caller)))
                .isEmpty();
        assertThat(verifier.verify(issuer(KEYS, "herald-gateway", "another-audience", Clock.systemUTC())
                        .issue(caller)))
                .isEmpty();
        Clock anHourAgo = Clock.fixed(Instant.now().minus(Duration.ofHours(1)), ZoneOffset.UTC);
        assertThat(verifier.verify(issuer(KEYS, "herald-gateway", "herald-services", anHourAgo)
                        .issue(caller)))
                .isEmpty();
    }

    @Test
    void refusesUnsignedAndMalformedTokens() {
        String jwt = issuer(KEYS, "herald-gateway", "herald-services", Clock.systemUTC())
                .issue(caller);
        String[] parts = jwt.split("\\.");
        String unsignedHeader =
                java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes());
        assertThat(verifier.verify(unsignedHeader + "." + parts[1] + ".")).isEmpty();
        assertThat(verifier.verify(parts[0] + "." + parts[1] + ".AAAA")).isEmpty();
        assertThat(verifier.verify("garbage")).isEmpty();
        assertThat(verifier.verify(null)).isEmpty();
    }

    @Test
    void aTokenVerifiedOnceIsAnsweredFromMemoryOnlyUntilItExpires() {
        Instant issued = Instant.now();
        String jwt = issuer(KEYS, "herald-gateway", "herald-services", Clock.fixed(issued, ZoneOffset.UTC))
                .issue(caller);
        MutableClock clock = new MutableClock(issued);
        InternalTokenVerifier remembering = new InternalTokenVerifier(
                RsaKeys.readPublicKey(RsaKeys.publicKeyPem(KEYS.getPublic())),
                "herald-gateway",
                "herald-services",
                clock);

        assertThat(remembering.verify(jwt)).contains(caller);
        clock.now = issued.plusSeconds(60 + InternalTokenVerifier.CLOCK_SKEW_SECONDS - 1);
        assertThat(remembering.verify(jwt)).contains(caller);
        clock.now = issued.plusSeconds(60 + InternalTokenVerifier.CLOCK_SKEW_SECONDS);
        assertThat(remembering.verify(jwt)).isEmpty();
    }

    @Test
    void aTamperedCopyOfARememberedTokenIsStillRefused() {
        String jwt = issuer(KEYS, "herald-gateway", "herald-services", Clock.systemUTC())
                .issue(caller);
        assertThat(verifier.verify(jwt)).contains(caller);
        String[] parts = jwt.split("\\.");
        String otherWorkspace = java.util.Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(new String(java.util.Base64.getUrlDecoder().decode(parts[1]))
                        .replace("ws_1", "ws_2")
                        .getBytes());
        assertThat(verifier.verify(parts[0] + "." + otherWorkspace + "." + parts[2]))
                .isEmpty();
        assertThat(verifier.verify(jwt)).contains(caller);
    }

    private static final class MutableClock extends Clock {
        private Instant now;

        private MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
