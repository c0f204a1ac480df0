package dev.herald.webhooks.delivery;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.List;
import java.util.StringJoiner;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code webhook-signature} header (spec section 6): {@code v1=} + the hex HMAC-SHA256, keyed with the UTF-8
 * bytes of the endpoint secret, of {@code <webhook-id>.<webhook-timestamp>.<raw body>}; one value per secret that
 * still signs, space-separated, the current secret first.
 */
public final class Signatures {
    private static final HexFormat HEX = HexFormat.of();

    private Signatures() {}

    public static String header(List<String> secrets, String webhookId, long timestamp, byte[] body) {
        byte[] prefix = (webhookId + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        StringJoiner header = new StringJoiner(" ");
        for (String secret : secrets) {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                mac.update(prefix);
                header.add("v1=" + HEX.formatHex(mac.doFinal(body)));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 is not available", e);
            }
        }
        return header.toString();
    }
}
