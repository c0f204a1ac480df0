package dev.herald.common.paging;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque, signed cursors. The text is {@code base64url(position) "." base64url(HMAC-SHA256(secret, scope
 * + position))}: the position is readable but cannot be changed, and the scope is not in the cursor at
 * all, only in its signature, so the same cursor presented under another scope fails verification.
 */
public final class CursorCodec {
    public static final int MAX_LENGTH = 4096;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final SecretKeySpec key;

    public CursorCodec(byte[] secret) {
        if (secret.length < 16) {
            throw new IllegalArgumentException("the cursor secret must be at least 16 bytes");
        }
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    }

    public String encode(CursorScope scope, CursorPosition position) {
        String payload = position.createdAt().toString() + "|" + position.id();
        byte[] payloadBytes = payload.getBytes(StandardCharsets.UTF_8);
        return ENCODER.encodeToString(payloadBytes) + "." + ENCODER.encodeToString(sign(scope, payloadBytes));
    }

    public CursorPosition decode(CursorScope scope, String cursor) {
        return decode(scope, cursor, MAX_LENGTH);
    }

    /** The same, for lists whose cursors may be longer (Pinterest boards and sections: 8192 characters). */
    public CursorPosition decode(CursorScope scope, String cursor, int maxLength) {
        if (cursor.isEmpty() || cursor.length() > maxLength) {
            throw invalid();
        }
        int dot = cursor.indexOf('.');
        if (dot < 1 || dot != cursor.lastIndexOf('.')) {
            throw invalid();
        }
        try {
            byte[] payload = DECODER.decode(cursor.substring(0, dot));
            byte[] signature = DECODER.decode(cursor.substring(dot + 1));
            if (!MessageDigest.isEqual(signature, sign(scope, payload))) {
                throw invalid();
            }
            String text = new String(payload, StandardCharsets.UTF_8);
            int bar = text.indexOf('|');
            if (bar < 1) {
                throw invalid();
            }
            return new CursorPosition(Instant.parse(text.substring(0, bar)), text.substring(bar + 1));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw invalid();
        }
    }

    private byte[] sign(CursorScope scope, byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(scope.canonical().getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    private static ApiException invalid() {
        return new ApiException(
                ErrorCode.INVALID_CURSOR,
                "The cursor is not valid for this list. Pass meta.next_cursor back unchanged, with the same filters and key.");
    }
}
