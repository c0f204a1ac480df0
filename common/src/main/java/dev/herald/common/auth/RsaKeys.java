package dev.herald.common.auth;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/** Reads and writes the RSA keys of the internal JWT as PEM text (what env vars and Secrets carry). */
public final class RsaKeys {
    private RsaKeys() {}

    public static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA is not available", e);
        }
    }

    public static String publicKeyPem(PublicKey key) {
        return pem("PUBLIC KEY", key.getEncoded());
    }

    public static String privateKeyPem(PrivateKey key) {
        return pem("PRIVATE KEY", key.getEncoded());
    }

    public static PublicKey readPublicKey(String pem) {
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der(pem)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("herald.internal-jwt.public-key is not an RSA public key", e);
        }
    }

    public static PrivateKey readPrivateKey(String pem) {
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der(pem)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("herald.internal-jwt.private-key is not a PKCS#8 RSA private key", e);
        }
    }

    private static byte[] der(String pem) {
        String base64 = pem.replaceAll("-----(BEGIN|END) [A-Z ]+-----", "").replaceAll("\\s", "");
        return Base64.getDecoder().decode(base64);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
