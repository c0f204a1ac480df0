package dev.herald.gateway.proxy;

import com.sun.net.httpserver.HttpServer;
import dev.herald.common.auth.RsaKeys;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.Map;

/**
 * An external OIDC issuer (think Keycloak), reduced to what the gateway uses of one: a JWKS document at
 * a URL, and tokens signed with its key.
 */
public class ExternalIssuer implements QuarkusTestResourceLifecycleManager {
    public static final String ISSUER = "https://idp.example.test/realms/herald";
    public static final String KEY_ID = "idp-key-1";
    public static final KeyPair KEYS = RsaKeys.generate();
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        RSAPublicKey key = (RSAPublicKey) KEYS.getPublic();
        String jwks =
                "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"" + KEY_ID + "\",\"use\":\"sig\",\"alg\":\"RS256\",\"n\":\""
                        + base64Url(key.getModulus()) + "\",\"e\":\"" + base64Url(key.getPublicExponent()) + "\"}]}";
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/jwks", exchange -> {
            byte[] body = jwks.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return Map.of(
                "herald.oauth.external.issuer",
                ISSUER,
                "herald.oauth.external.jwks-url",
                "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks");
    }

    private static String base64Url(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = java.util.Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
