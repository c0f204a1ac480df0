package dev.herald.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.sdk.WebhookVerifier.Reason;
import dev.herald.sdk.WebhookVerifier.VerificationException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class WebhookVerifierTest {
    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    static final String OTHER_SECRET = "whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24h";
    static final String ID = "evt_0123456789abcdef01234567";
    static final long TIMESTAMP = 1767225600L;
    static final String BODY = "{\"id\":\"evt_0123456789abcdef01234567\",\"type\":\"post.published\"}";
    /** Computed independently: python3 hmac.new(SECRET, f"{ID}.{TIMESTAMP}.{BODY}", sha256).hexdigest(). */
    static final String SIGNATURE = "v1=674adaea78bb4fb474c49f09afb91c2c58923e9edd990b8659430edc2de4bfb2";

    static final String OTHER_SIGNATURE = "v1=f2bb1d290179fe742f21c47f72689c25318d99e2c81cb23141de9cbf28e06475";

    static WebhookVerifier verifierAt(long epochSecond, String... secrets) {
        return new WebhookVerifier(
                List.of(secrets),
                WebhookVerifier.DEFAULT_TOLERANCE,
                Clock.fixed(Instant.ofEpochSecond(epochSecond), ZoneOffset.UTC));
    }

    static Map<String, List<String>> headers(String id, String timestamp, String signature) {
        return Map.of(
                "Webhook-Id",
                List.of(id),
                "WEBHOOK-TIMESTAMP",
                List.of(timestamp),
                "webhook-signature",
                List.of(signature));
    }

    static byte[] body() {
        return BODY.getBytes(StandardCharsets.UTF_8);
    }

    static void refused(Reason reason, ThrowingCallable call) {
        assertThatThrownBy(call)
                .isInstanceOf(VerificationException.class)
                .satisfies(e -> assertThat(((VerificationException) e).reason()).isEqualTo(reason));
    }

    @Test
    void aGenuineDeliveryIsAcceptedAndAnswersItsEventId() {
        assertThat(verifierAt(TIMESTAMP, SECRET).verify(body(), headers(ID, "1767225600", SIGNATURE)))
                .isEqualTo(ID);
        assertThat(verifierAt(TIMESTAMP + 10, SECRET).verify(BODY, headers(ID, "1767225600", SIGNATURE)))
                .isEqualTo(ID);
    }

    @Test
    void signMatchesAnIndependentlyComputedHmac() {
        assertThat(WebhookVerifier.sign(SECRET, ID, TIMESTAMP, body())).isEqualTo(SIGNATURE);
        assertThat(WebhookVerifier.sign(OTHER_SECRET, ID, TIMESTAMP, body())).isEqualTo(OTHER_SIGNATURE);
    }

    @Test
    void aTamperedBodyIsRefused() {
        byte[] tampered = BODY.replace("published", "failed").getBytes(StandardCharsets.UTF_8);
        refused(
                Reason.NO_MATCHING_SIGNATURE,
                () -> verifierAt(TIMESTAMP, SECRET).verify(tampered, headers(ID, "1767225600", SIGNATURE)));
        // Even whitespace matters: the signature covers the raw bytes, not the parsed JSON.
        refused(
                Reason.NO_MATCHING_SIGNATURE,
                () -> verifierAt(TIMESTAMP, SECRET).verify(BODY + "\n", headers(ID, "1767225600", SIGNATURE)));
    }

    @Test
    void aTamperedIdOrTimestampIsRefused() {
        refused(
                Reason.NO_MATCHING_SIGNATURE,
                () -> verifierAt(TIMESTAMP, SECRET)
                        .verify(body(), headers("evt_0123456789abcdef01234568", "1767225600", SIGNATURE)));
        refused(
                Reason.NO_MATCHING_SIGNATURE,
                () -> verifierAt(TIMESTAMP, SECRET).verify(body(), headers(ID, "1767225601", SIGNATURE)));
    }

    @Test
    void theWrongSecretIsRefused() {
        refused(
                Reason.NO_MATCHING_SIGNATURE,
                () -> verifierAt(TIMESTAMP, OTHER_SECRET).verify(body(), headers(ID, "1767225600", SIGNATURE)));
    }

    @Test
    void aStaleTimestampIsRefusedBeyondThreeHundredSeconds() {
        assertThat(verifierAt(TIMESTAMP + 300, SECRET).verify(body(), headers(ID, "1767225600", SIGNATURE)))
                .isEqualTo(ID);
        refused(
                Reason.TIMESTAMP_TOO_OLD,
                () -> verifierAt(TIMESTAMP + 301, SECRET).verify(body(), headers(ID, "1767225600", SIGNATURE)));
    }

    @Test
    void aFutureTimestampIsRefusedBeyondThreeHundredSeconds() {
        assertThat(verifierAt(TIMESTAMP - 300, SECRET).verify(body(), headers(ID, "1767225600", SIGNATURE)))
                .isEqualTo(ID);
        refused(
                Reason.TIMESTAMP_TOO_NEW,
                () -> verifierAt(TIMESTAMP - 301, SECRET).verify(body(), headers(ID, "1767225600", SIGNATURE)));
    }

    @Test
    void theToleranceCanBeChosen() {
        WebhookVerifier strict = new WebhookVerifier(
                List.of(SECRET),
                Duration.ofSeconds(5),
                Clock.fixed(Instant.ofEpochSecond(TIMESTAMP + 6), ZoneOffset.UTC));
        refused(Reason.TIMESTAMP_TOO_OLD, () -> strict.verify(body(), headers(ID, "1767225600", SIGNATURE)));
    }

    @Test
    void duringRotationAnyOfSeveralSignaturesMatches() {
        // Herald signs with the new and the rotated-out secret; a receiver holding either one accepts.
        String both = OTHER_SIGNATURE + " " + SIGNATURE;
        assertThat(verifierAt(TIMESTAMP, SECRET).verify(body(), headers(ID, "1767225600", both)))
                .isEqualTo(ID);
        assertThat(verifierAt(TIMESTAMP, OTHER_SECRET).verify(body(), headers(ID, "1767225600", both)))
                .isEqualTo(ID);
        // A receiver that holds both secrets while it switches accepts a delivery signed with one of them.
        assertThat(verifierAt(TIMESTAMP, OTHER_SECRET, SECRET).verify(body(), headers(ID, "1767225600", SIGNATURE)))
                .isEqualTo(ID);
        refused(
                Reason.NO_MATCHING_SIGNATURE,
                () -> verifierAt(TIMESTAMP, "whsec_neither").verify(body(), headers(ID, "1767225600", both)));
    }

    @Test
    void signaturesOfOtherVersionsAreIgnored() {
        assertThat(verifierAt(TIMESTAMP, SECRET).verify(body(), headers(ID, "1767225600", "v2=abc " + SIGNATURE)))
                .isEqualTo(ID);
    }

    @Test
    void missingHeadersAreNamed() {
        WebhookVerifier verifier = verifierAt(TIMESTAMP, SECRET);
        assertThatThrownBy(() -> verifier.verify(
                        body(),
                        Map.of("webhook-timestamp", List.of("1767225600"), "webhook-signature", List.of(SIGNATURE))))
                .isInstanceOf(VerificationException.class)
                .hasMessageContaining("webhook-id");
        refused(Reason.MISSING_HEADER, () -> verifier.verify(body(), ID, null, SIGNATURE));
        refused(Reason.MISSING_HEADER, () -> verifier.verify(body(), ID, "1767225600", " "));
    }

    @Test
    void malformedHeadersAreRefused() {
        WebhookVerifier verifier = verifierAt(TIMESTAMP, SECRET);
        refused(Reason.MALFORMED_HEADER, () -> verifier.verify(body(), ID, "2026-01-01T00:00:00Z", SIGNATURE));
        refused(Reason.MALFORMED_HEADER, () -> verifier.verify(body(), ID, "-1767225600", SIGNATURE));
        refused(Reason.MALFORMED_HEADER, () -> verifier.verify(body(), ID, "1767225600", "v1=zz"));
        refused(Reason.MALFORMED_HEADER, () -> verifier.verify(body(), ID, "1767225600", SIGNATURE.substring(0, 60)));
        // Standard Webhooks' format is not Herald's.
        refused(
                Reason.MALFORMED_HEADER,
                () -> verifier.verify(body(), ID, "1767225600", "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="));
        refused(Reason.MALFORMED_HEADER, () -> verifier.verify(body(), "evt.1", "1767225600", SIGNATURE));
    }

    @Test
    void uppercaseHexIsAccepted() {
        String upper = "v1=" + SIGNATURE.substring(3).toUpperCase();
        assertThat(verifierAt(TIMESTAMP, SECRET).verify(body(), headers(ID, "1767225600", upper)))
                .isEqualTo(ID);
    }

    @Test
    void aVerifierNeedsASecret() {
        assertThatThrownBy(() -> new WebhookVerifier(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WebhookVerifier(List.of(""))).isInstanceOf(IllegalArgumentException.class);
    }
}
