package dev.herald.common.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InternalTokenVerifierTest {
    private static final KeyPair KEYS = RsaKeys.generate();
    private final InternalToken caller =
            new InternalToken("ws_1", Mode.LIVE, "key_1", Set.of("profiles:read", "posts:write"));
    private final InternalTokenVerifier verifier = verifying(Map.of("k1", KEYS.getPublic()));

    private static InternalTokenVerifier verifying(Map<String, java.security.PublicKey> keys) {
        return new InternalTokenVerifier(
                VerifyKeys.fromJwks(RsaKeys.jwks(keys)), "herald-gateway", "herald-services", Clock.systemUTC());
    }

    private static InternalTokenIssuer issuer(KeyPair keys, String issuer, String audience, Clock clock) {
        return signer("k1", keys, issuer, audience, clock);
    }

    private static InternalTokenIssuer signer(String kid, KeyPair keys) {
        return signer(kid, keys, "herald-gateway", "herald-services", Clock.systemUTC());
    }

    private static InternalTokenIssuer signer(String kid, KeyPair keys, String issuer, String audience, Clock clock) {
        return new InternalTokenIssuer(
                kid,
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
                VerifyKeys.of(Map.of("k1", KEYS.getPublic())), "herald-gateway", "herald-services", clock);

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

    @Test
    void picksTheKeyTheTokenNamesFromTheSet() {
        KeyPair next = RsaKeys.generate();
        InternalTokenVerifier both = verifying(ordered("k1", KEYS, "k2", next));

        assertThat(both.verify(signer("k1", KEYS).issue(caller))).contains(caller);
        assertThat(both.verify(signer("k2", next).issue(caller))).contains(caller);
    }

    @Test
    void refusesAnUnknownKidAKidThatNamesAnotherKeyAndATokenWithoutKid() {
        KeyPair next = RsaKeys.generate();
        InternalTokenVerifier both = verifying(ordered("k1", KEYS, "k2", next));

        assertThat(both.verify(signer("k3", KEYS).issue(caller))).isEmpty();
        assertThat(both.verify(signer("k1", next).issue(caller))).isEmpty();
        String withoutKid = io.smallrye.jwt.build.Jwt.issuer("herald-gateway")
                .audience("herald-services")
                .subject("key_1")
                .claim(InternalTokenVerifier.WORKSPACE_CLAIM, "ws_1")
                .claim(InternalTokenVerifier.MODE_CLAIM, "live")
                .expiresIn(60)
                .jws()
                .algorithm(io.smallrye.jwt.algorithm.SignatureAlgorithm.RS256)
                .sign(KEYS.getPrivate());
        // A lone key in the set: smallrye-jwt alone would use it for a token that names none.
        assertThat(verifier.verify(withoutKid)).isEmpty();
    }

    @Test
    void aRotationKeepsEveryTokenVerifiableAtEveryStep() {
        KeyPair next = RsaKeys.generate();
        String oldToken = signer("k1", KEYS).issue(caller);
        String newToken = signer("k2", next).issue(caller);
        InternalTokenVerifier before = verifying(Map.of("k1", KEYS.getPublic()));
        InternalTokenVerifier during = verifying(ordered("k1", KEYS, "k2", next));
        InternalTokenVerifier after = verifying(Map.of("k2", next.getPublic()));

        // Step 1 adds k2 everywhere while k1 still signs: old and new verifiers take k1's tokens.
        assertThat(before.verify(oldToken)).contains(caller);
        assertThat(during.verify(oldToken)).contains(caller);
        // Step 2 signs with k2: every verifier already holds it. One left out of step 1 would refuse.
        assertThat(during.verify(newToken)).contains(caller);
        assertThat(before.verify(newToken)).isEmpty();
        // Step 3, after the tokens' lifetime, drops k1: its tokens are refused from then on.
        assertThat(after.verify(newToken)).contains(caller);
        assertThat(after.verify(oldToken)).isEmpty();
    }

    @Test
    void aKeySetMustNameEveryKeyOnceAndHoldOne() {
        KeyPair next = RsaKeys.generate();
        String unnamed = RsaKeys.jwks(Map.of("k1", KEYS.getPublic())).replace("\"kid\":\"k1\",", "");

        assertThat(VerifyKeys.fromJwks(RsaKeys.jwks(ordered("k1", KEYS, "k2", next)))
                        .keyIds())
                .containsExactlyInAnyOrder("k1", "k2");
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> VerifyKeys.fromJwks(unnamed));
        String twice = "{\"keys\":[" + jwk("k1", KEYS) + "," + jwk("k1", next) + "]}";
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> VerifyKeys.fromJwks(twice))
                .withMessageContaining("k1 twice");
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> VerifyKeys.fromJwks("{\"keys\":[]}"));
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> VerifyKeys.fromJwks("-----BEGIN PUBLIC KEY-----"));
    }

    private static String jwk(String kid, KeyPair keys) {
        String set = RsaKeys.jwks(Map.of(kid, keys.getPublic()));
        return set.substring(set.indexOf('[') + 1, set.lastIndexOf(']'));
    }

    private static Map<String, java.security.PublicKey> ordered(String kid1, KeyPair one, String kid2, KeyPair two) {
        Map<String, java.security.PublicKey> keys = new LinkedHashMap<>();
        keys.put(kid1, one.getPublic());
        keys.put(kid2, two.getPublic());
        return keys;
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
