package dev.herald.gateway.rest;

import dev.herald.gateway.service.OAuthTokenService;
import dev.herald.gateway.service.OAuthTokenService.OAuthError;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code POST /oauth/token}: the client_credentials grant. This endpoint belongs to OAuth, not to the REST
 * API, so it answers in RFC 6749's terms ({@code access_token} / {@code error}), which OAuth libraries
 * expect, rather than in Herald's envelope. Client credentials come as HTTP Basic or form fields.
 */
@Path("/oauth/token")
public class OAuthTokenResource {
    private static final String BASIC = "Basic ";

    private final OAuthTokenService tokens;

    public OAuthTokenResource(OAuthTokenService tokens) {
        this.tokens = tokens;
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> token(@HeaderParam("authorization") String authorization,
                               @FormParam("grant_type") String grantType, @FormParam("client_id") String clientId,
                               @FormParam("client_secret") String clientSecret, @FormParam("resource") String resource,
                               @FormParam("scope") String scope) {
        String[] basic = basicCredentials(authorization);
        String id = basic != null ? basic[0] : clientId;
        String secret = basic != null ? basic[1] : clientSecret;
        return tokens.grant(grantType, id, secret, resource, scope)
                .map(token -> {
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("access_token", token.accessToken());
                    body.put("token_type", token.tokenType());
                    body.put("expires_in", token.expiresIn());
                    body.put("scope", token.scope());
                    return noStore(Response.ok(body)).build();
                })
                .onFailure(OAuthError.class).recoverWithItem(failure -> {
                    OAuthError error = (OAuthError) failure;
                    Response.ResponseBuilder response = Response.status(error.status())
                            .entity(Map.of("error", error.error(), "error_description", error.getMessage()));
                    if (error.status() == 401) {
                        response.header("WWW-Authenticate", "Basic realm=\"herald\"");
                    }
                    return noStore(response).build();
                });
    }

    private static Response.ResponseBuilder noStore(Response.ResponseBuilder response) {
        return response.type(MediaType.APPLICATION_JSON).header("Cache-Control", "no-store").header("Pragma", "no-cache");
    }

    private static String[] basicCredentials(String authorization) {
        if (authorization == null || !authorization.startsWith(BASIC)) {
            return null;
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(authorization.substring(BASIC.length()).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0 ? null : new String[] {decoded.substring(0, colon), decoded.substring(colon + 1)};
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
