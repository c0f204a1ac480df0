package dev.herald.sdk;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies a Herald webhook delivery, for receivers written in Java (part of the Java SDK; it depends on nothing but
 * the JDK, so a receiver that does not use the SDK can copy it as it is).
 *
 * <p>A delivery carries three headers: {@code webhook-id} (the event id, the same on every retry),
 * {@code webhook-timestamp} (Unix seconds of this attempt) and {@code webhook-signature}: one or more
 * space-separated {@code v1=<hex>} values, each the lowercase hex HMAC-SHA256, keyed with the UTF-8 bytes of an
 * endpoint secret ({@code whsec_...}, used whole, as shown once by the API), of
 * {@code <webhook-id>.<webhook-timestamp>.<raw body>}. While a rotated-out secret is still valid, every secret
 * signs, so the header holds several values; one that matches any of the verifier's secrets is enough.
 *
 * <p>Verify the <em>raw</em> body bytes before parsing them (a re-serialized body does not match), and
 * deduplicate by {@code webhook-id} afterwards: delivery is at least once. (This is the Herald spec's
 * {@code v1=} + hex format; Standard Webhooks' {@code v1,} + base64 signatures are not accepted.)
 *
 * <pre>{@code
 * WebhookVerifier verifier = new WebhookVerifier(List.of(System.getenv("HERALD_WEBHOOK_SECRET")));
 * verifier.verify(rawBody, headers);   // throws WebhookVerifier.VerificationException
 * }</pre>
 */
public final class WebhookVerifier {
    public static final String ID_HEADER = "webhook-id";
    public static final String TIMESTAMP_HEADER = "webhook-timestamp";
    public static final String SIGNATURE_HEADER = "webhook-signature";
    /** The spec's default tolerance between the delivery's timestamp and the receiver's clock, either way. */
    public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);

    private static final String VERSION = "v1=";
    private static final int MAX_SIGNATURES = 32;
    private static final HexFormat HEX = HexFormat.of();

    private final List<byte[]> secrets;
    private final Duration tolerance;
    private final Clock clock;

    /** A verifier that accepts signatures made with any of {@code secrets} (several while rotating). */
    public WebhookVerifier(List<String> secrets) {
        this(secrets, DEFAULT_TOLERANCE, Clock.systemUTC());
    }

    public WebhookVerifier(List<String> secrets, Duration tolerance, Clock clock) {
        Objects.requireNonNull(secrets, "secrets");
        if (secrets.isEmpty()) {
            throw new IllegalArgumentException("at least one webhook secret is needed");
        }
        List<byte[]> keys = new ArrayList<>();
        for (String secret : secrets) {
            if (secret == null || secret.isEmpty()) {
                throw new IllegalArgumentException("a webhook secret is empty");
            }
            keys.add(secret.getBytes(StandardCharsets.UTF_8));
        }
        if (tolerance == null || tolerance.isNegative()) {
            throw new IllegalArgumentException("the tolerance must be zero or positive");
        }
        this.secrets = List.copyOf(keys);
        this.tolerance = tolerance;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Verifies a delivery given its raw body and its headers (names in any case; the first value of each is
     * used). Answers the event id ({@code webhook-id}) to deduplicate by.
     *
     * @throws VerificationException saying why the delivery must be refused
     */
    public String verify(byte[] rawBody, Map<String, ? extends List<String>> headers) {
        Objects.requireNonNull(headers, "headers");
        return verify(
                rawBody,
                header(headers, ID_HEADER),
                header(headers, TIMESTAMP_HEADER),
                header(headers, SIGNATURE_HEADER));
    }

    /** The same for a body already held as text: it is verified as its UTF-8 bytes. */
    public String verify(String rawBody, Map<String, ? extends List<String>> headers) {
        Objects.requireNonNull(rawBody, "rawBody");
        return verify(rawBody.getBytes(StandardCharsets.UTF_8), headers);
    }

    /**
     * Verifies a delivery given the three header values (any may be null: it is then missing).
     *
     * @throws VerificationException saying why the delivery must be refused
     */
    public String verify(byte[] rawBody, String webhookId, String webhookTimestamp, String webhookSignature) {
        Objects.requireNonNull(rawBody, "rawBody");
        if (webhookId == null || webhookId.isBlank()) {
            throw new VerificationException(Reason.MISSING_HEADER, "The webhook-id header is missing.");
        }
        if (webhookTimestamp == null || webhookTimestamp.isBlank()) {
            throw new VerificationException(Reason.MISSING_HEADER, "The webhook-timestamp header is missing.");
        }
        if (webhookSignature == null || webhookSignature.isBlank()) {
            throw new VerificationException(Reason.MISSING_HEADER, "The webhook-signature header is missing.");
        }
        if (webhookId.indexOf('.') >= 0) {
            throw new VerificationException(Reason.MALFORMED_HEADER, "The webhook-id header must not contain '.'.");
        }
        long timestamp = parseTimestamp(webhookTimestamp.trim());
        long now = clock.instant().getEpochSecond();
        if (timestamp < now - tolerance.getSeconds()) {
            throw new VerificationException(
                    Reason.TIMESTAMP_TOO_OLD,
                    "The webhook-timestamp is more than " + tolerance.getSeconds()
                            + " s in the past (a replay, or the receiver's clock is wrong).");
        }
        if (timestamp > now + tolerance.getSeconds()) {
            throw new VerificationException(
                    Reason.TIMESTAMP_TOO_NEW,
                    "The webhook-timestamp is more than " + tolerance.getSeconds()
                            + " s in the future (the receiver's clock is wrong).");
        }
        List<byte[]> offered = parseSignatures(webhookSignature);
        for (byte[] secret : secrets) {
            byte[] expected = mac(secret, webhookId, webhookTimestamp.trim(), rawBody);
            for (byte[] candidate : offered) {
                if (MessageDigest.isEqual(expected, candidate)) {
                    return webhookId;
                }
            }
        }
        throw new VerificationException(
                Reason.NO_MATCHING_SIGNATURE,
                "No signature in webhook-signature matches the body with the configured secret(s).");
    }

    /**
     * The {@code v1=<hex>} signature of a delivery made with one secret: what Herald sends, and what a test of a
     * receiver can send to it.
     */
    public static String sign(String secret, String webhookId, long webhookTimestamp, byte[] rawBody) {
        return VERSION
                + HEX.formatHex(mac(
                        secret.getBytes(StandardCharsets.UTF_8), webhookId, Long.toString(webhookTimestamp), rawBody));
    }

    private static long parseTimestamp(String text) {
        if (text.isEmpty() || text.length() > 12 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new VerificationException(
                    Reason.MALFORMED_HEADER, "The webhook-timestamp header must be whole Unix seconds.");
        }
        return Long.parseLong(text);
    }

    private static List<byte[]> parseSignatures(String header) {
        List<byte[]> found = new ArrayList<>();
        for (String part : header.trim().split(" +")) {
            if (found.size() == MAX_SIGNATURES) {
                throw new VerificationException(
                        Reason.MALFORMED_HEADER, "The webhook-signature header has too many values.");
            }
            if (!part.startsWith(VERSION)) {
                // Another (future) version, or another provider's format: not ours to check.
                continue;
            }
            String hex = part.substring(VERSION.length());
            if (hex.length() != 64) {
                throw new VerificationException(
                        Reason.MALFORMED_HEADER, "A v1= signature must be 64 hexadecimal characters.");
            }
            try {
                found.add(HEX.parseHex(hex.toLowerCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new VerificationException(
                        Reason.MALFORMED_HEADER, "A v1= signature must be 64 hexadecimal characters.");
            }
        }
        if (found.isEmpty()) {
            throw new VerificationException(
                    Reason.MALFORMED_HEADER,
                    "The webhook-signature header has no v1= signature (Herald sends v1=<hex>, space-separated).");
        }
        return found;
    }

    private static byte[] mac(byte[] secret, String webhookId, String timestamp, byte[] rawBody) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update((webhookId + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(rawBody);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    private static String header(Map<String, ? extends List<String>> headers, String name) {
        for (Map.Entry<String, ? extends List<String>> entry : headers.entrySet()) {
            if (entry.getKey() != null && entry.getKey().equalsIgnoreCase(name)) {
                List<String> values = entry.getValue();
                return values == null || values.isEmpty() ? null : values.get(0);
            }
        }
        return null;
    }

    /** Why a delivery was refused. */
    public enum Reason {
        MISSING_HEADER,
        MALFORMED_HEADER,
        TIMESTAMP_TOO_OLD,
        TIMESTAMP_TOO_NEW,
        NO_MATCHING_SIGNATURE
    }

    /** A delivery that must not be trusted; answer it with a 4xx and do not act on its body. */
    public static final class VerificationException extends RuntimeException {
        private final Reason reason;

        public VerificationException(Reason reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }

        public Reason reason() {
            return reason;
        }
    }
}
