package dev.herald.gateway.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.gateway.proxy.BoundedBody;
import dev.herald.gateway.proxy.MetricsRouteNames;
import dev.herald.gateway.proxy.RateLimitHeaders;
import dev.herald.gateway.service.OAuthTokenService;
import dev.herald.gateway.service.OAuthTokenService.AccessToken;
import dev.herald.gateway.service.OAuthTokenService.OAuthError;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * {@code POST /oauth/token}: the client_credentials grant (RFC 6749 section 4.4, RFC 8707 resource binding). It
 * belongs to OAuth, not to the REST API, so every answer is in RFC 6749's terms ({@code access_token}, or
 * {@code error} and {@code error_description}, never cached), which OAuth libraries parse, rather than in
 * Herald's envelope. A Vert.x route rather than a JAX-RS resource so that the form is read here, whole and
 * bounded ({@value #MAX_BODY_BYTES} bytes): RESTEasy's form reader refused a field over 2 KiB outside any mapper,
 * with a 500 and an error log per chunk. Like {@code openapi.json}, the endpoint counts in the per-address
 * window of requests without an API credential, which reports and never refuses.
 */
@ApplicationScoped
public class OAuthTokenRoute {
    public static final String PATH = "/oauth/token";
    static final int MAX_BODY_BYTES = 16 * 1024;
    private static final String FORM = "application/x-www-form-urlencoded";

    private static final Logger LOG = Logger.getLogger(OAuthTokenRoute.class);

    private final OAuthTokenService tokens;
    private final RateLimitHeaders rateLimitHeaders;
    private final ObjectMapper mapper;

    public OAuthTokenRoute(OAuthTokenService tokens, RateLimitHeaders rateLimitHeaders, ObjectMapper mapper) {
        this.tokens = tokens;
        this.rateLimitHeaders = rateLimitHeaders;
        this.mapper = mapper;
    }

    void register(@Observes Router router) {
        router.route(PATH).order(-200).handler(this::handle);
    }

    private void handle(RoutingContext rc) {
        MetricsRouteNames.name(rc, PATH);
        // Paused until the window is counted, so no chunk of the form is lost meanwhile.
        rc.request().pause();
        // Without a counted window the grant still runs: it needs the database anyway and answers for itself.
        rateLimitHeaders.countAnonymously(rc, () -> readTokenRequest(rc));
    }

    private void readTokenRequest(RoutingContext rc) {
        if (rc.request().method() != HttpMethod.POST) {
            rc.request().resume();
            rc.response().putHeader("Allow", "POST");
            refuse(rc, new OAuthError(405, "invalid_request", "The token endpoint takes POST only."));
            return;
        }
        String contentType = rc.request().getHeader("content-type");
        if (contentType == null || !contentType.split(";", 2)[0].trim().equalsIgnoreCase(FORM)) {
            rc.request().resume();
            refuse(rc, new OAuthError(400, "invalid_request", "The token request must be " + FORM + "."));
            return;
        }
        BoundedBody.read(
                rc, MAX_BODY_BYTES, body -> grant(rc, body.toString(StandardCharsets.UTF_8)), () -> tooLarge(rc));
    }

    private void grant(RoutingContext rc, String body) {
        Map<String, String> form;
        ClientCredentials client;
        try {
            form = TokenRequestForm.parse(body);
            client = ClientCredentials.of(rc.request().getHeader("authorization"), form);
        } catch (OAuthError refusal) {
            refuse(rc, refusal);
            return;
        }
        tokens.grant(form.get("grant_type"), client.id(), client.secret(), form.get("resource"), form.get("scope"))
                .subscribe()
                .with(token -> granted(rc, token), failure -> {
                    if (failure instanceof OAuthError refusal) {
                        refuse(rc, refusal);
                    } else {
                        LOG.errorf(
                                failure,
                                "request %s: the token grant failed",
                                rc.request().getHeader("x-request-id"));
                        refuse(
                                rc,
                                new OAuthError(
                                        503,
                                        "temporarily_unavailable",
                                        "The token endpoint is temporarily unavailable. Retry shortly."));
                    }
                });
    }

    private void granted(RoutingContext rc, AccessToken token) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("access_token", token.accessToken());
        body.put("token_type", token.tokenType());
        body.put("expires_in", token.expiresIn());
        body.put("scope", token.scope());
        send(rc, 200, body);
    }

    private void tooLarge(RoutingContext rc) {
        rc.response().putHeader("connection", "close");
        refuse(
                rc,
                new OAuthError(
                        413, "invalid_request", "The token request is larger than " + MAX_BODY_BYTES / 1024 + " KiB."));
    }

    private void refuse(RoutingContext rc, OAuthError error) {
        if (error.status() == 401) {
            rc.response().putHeader("WWW-Authenticate", "Basic realm=\"herald\"");
        }
        send(rc, error.status(), Map.of("error", error.error(), "error_description", error.getMessage()));
    }

    private void send(RoutingContext rc, int status, Map<String, Object> body) {
        if (rc.response().ended()) {
            return;
        }
        try {
            rc.response()
                    .setStatusCode(status)
                    .putHeader("content-type", "application/json")
                    .putHeader("Cache-Control", "no-store")
                    .putHeader("Pragma", "no-cache")
                    .end(mapper.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An application/x-www-form-urlencoded token request (RFC 6749 section 3.2 and appendix B). */
    static final class TokenRequestForm {
        private TokenRequestForm() {}

        /**
         * The parameters by name. A parameter sent without a value counts as omitted (section 3.1); one sent
         * twice is refused (section 3.2: "MUST NOT be included more than once"), as is a malformed encoding.
         */
        static Map<String, String> parse(String body) {
            Map<String, String> form = new LinkedHashMap<>();
            Map<String, Boolean> seen = new LinkedHashMap<>();
            for (String pair : body.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int equals = pair.indexOf('=');
                String name = decode(equals < 0 ? pair : pair.substring(0, equals));
                String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
                if (seen.put(name, Boolean.TRUE) != null) {
                    throw new OAuthError(
                            400, "invalid_request", "The parameter " + printable(name) + " is given more than once.");
                }
                if (!value.isEmpty()) {
                    form.put(name, value);
                }
            }
            return form;
        }

        private static String decode(String encoded) {
            try {
                String decoded = URLDecoder.decode(encoded, StandardCharsets.UTF_8);
                if (decoded.indexOf('\u0000') >= 0 || decoded.indexOf('\uFFFD') >= 0) {
                    throw new OAuthError(
                            400, "invalid_request", "The token request holds text that is not valid UTF-8.");
                }
                return decoded;
            } catch (IllegalArgumentException e) {
                throw new OAuthError(400, "invalid_request", "The token request is not valid " + FORM + ".");
            }
        }

        private static String printable(String name) {
            return name.length() > 40 || !name.matches("[A-Za-z0-9_.:-]+") ? "(unnamed)" : name;
        }
    }

    /**
     * The client's credentials, by exactly one method (section 2.3): HTTP Basic, whose parts are form-encoded
     * before Base64 (section 2.3.1), or {@code client_id} and {@code client_secret} in the body.
     */
    record ClientCredentials(String id, String secret) {
        static ClientCredentials of(String authorization, Map<String, String> form) {
            String bodyId = form.get("client_id");
            String bodySecret = form.get("client_secret");
            if (authorization != null) {
                ClientCredentials basic = basic(authorization);
                if (bodySecret != null || (bodyId != null && !bodyId.equals(basic.id()))) {
                    throw new OAuthError(
                            400,
                            "invalid_request",
                            "Authenticate the client by one method: HTTP Basic or client_id and client_secret, not both.");
                }
                return basic;
            }
            if (bodyId == null || bodySecret == null) {
                throw new OAuthError(
                        401,
                        "invalid_client",
                        "Client authentication is required: HTTP Basic, or client_id and client_secret in the body.");
            }
            return new ClientCredentials(bodyId, bodySecret);
        }

        private static ClientCredentials basic(String authorization) {
            String[] parts = authorization.trim().split(" +", 2);
            if (parts.length != 2 || !parts[0].toLowerCase(Locale.ROOT).equals("basic")) {
                throw new OAuthError(
                        401, "invalid_client", "The token endpoint authenticates clients with HTTP Basic.");
            }
            try {
                String decoded = new String(Base64.getDecoder().decode(parts[1].trim()), StandardCharsets.UTF_8);
                int colon = decoded.indexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException("no client id");
                }
                return new ClientCredentials(
                        URLDecoder.decode(decoded.substring(0, colon), StandardCharsets.UTF_8),
                        URLDecoder.decode(decoded.substring(colon + 1), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new OAuthError(401, "invalid_client", "The HTTP Basic credentials could not be read.");
            }
        }
    }
}
