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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.lang.JoseException;

/**
 * Reads and writes the RSA keys of the internal JWT: private keys as PEM text, the set of public keys the services
 * verify with as a JWKS (jose4j, the JOSE library under smallrye-jwt), each key named by its {@code kid}.
 */
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

    /** A JWKS of {@code keys} (key id to public key), in the given order, each marked RS256 for signatures. */
    public static String jwks(Map<String, PublicKey> keys) {
        List<JsonWebKey> set = new java.util.ArrayList<>();
        for (Map.Entry<String, PublicKey> key : keys.entrySet()) {
            RsaJsonWebKey jwk = new RsaJsonWebKey((java.security.interfaces.RSAPublicKey) key.getValue());
            jwk.setKeyId(checkedKeyId(key.getKey()));
            jwk.setAlgorithm("RS256");
            jwk.setUse("sig");
            set.add(jwk);
        }
        return new JsonWebKeySet(set).toJson();
    }

    /**
     * The public keys of a JWKS by key id.
     *
     * @throws IllegalArgumentException when the text is no JWKS, is empty, or holds a key that is not RSA, has no
     *     {@code kid} or repeats one
     */
    public static Map<String, PublicKey> readJwks(String json) {
        List<JsonWebKey> set;
        try {
            set = new JsonWebKeySet(json).getJsonWebKeys();
        } catch (JoseException | RuntimeException e) {
            throw new IllegalArgumentException("herald.internal-jwt.verify-keys is not a JWKS (JSON Web Key Set)", e);
        }
        Map<String, PublicKey> keys = new LinkedHashMap<>();
        for (JsonWebKey jwk : set) {
            if (!(jwk instanceof RsaJsonWebKey rsa)) {
                throw new IllegalArgumentException("herald.internal-jwt.verify-keys holds a key that is not RSA");
            }
            String kid = checkedKeyId(rsa.getKeyId());
            if (keys.putIfAbsent(kid, rsa.getPublicKey()) != null) {
                throw new IllegalArgumentException("herald.internal-jwt.verify-keys holds kid " + kid + " twice");
            }
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("herald.internal-jwt.verify-keys holds no key");
        }
        return keys;
    }

    public static PublicKey readPublicKey(String pem) {
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der(pem)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a PEM RSA public key", e);
        }
    }

    public static PrivateKey readPrivateKey(String pem) {
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der(pem)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("herald.internal-jwt.private-key is not a PKCS#8 RSA private key", e);
        }
    }

    /** A key id as configured: short, and safe in a JWT header, a log line and a Secret's key. */
    public static String checkedKeyId(String kid) {
        if (kid == null || !kid.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new IllegalArgumentException(
                    "an internal JWT key id (kid) is 1 to 64 of A-Z, a-z, 0-9, '_', '.' and '-'");
        }
        return kid;
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
