package dev.herald.fakes.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Predicate;

/**
 * What every fake platform keeps: the shared token and code stores and its own published items. The fakes are
 * {@code @Singleton}s (no client proxy, so their state can live in final fields here).
 */
public abstract class StatefulPlatformFake implements PlatformFake {
    protected final IssuedTokens tokens;
    protected final AuthorizationServer authorization;
    protected final ObjectMapper mapper;
    private final Deque<ObjectNode> published = new ConcurrentLinkedDeque<>();

    protected StatefulPlatformFake(IssuedTokens tokens, AuthorizationServer authorization, ObjectMapper mapper) {
        this.tokens = tokens;
        this.authorization = authorization;
        this.mapper = mapper;
    }

    @Override
    public List<JsonNode> published() {
        return List.copyOf(published);
    }

    @Override
    public void reset() {
        published.clear();
    }

    /** Keeps an item newest first. */
    protected ObjectNode publish(ObjectNode item) {
        published.addFirst(item);
        return item;
    }

    protected List<ObjectNode> publishedWhere(Predicate<ObjectNode> filter) {
        List<ObjectNode> items = new ArrayList<>();
        published.forEach(item -> {
            if (filter.test(item)) {
                items.add(item);
            }
        });
        return items;
    }

    /** The state of the access token the request presents. */
    protected IssuedTokens.State tokenState(FakeRequest request) {
        return tokens.state(platform(), accessToken(request), false);
    }

    /** The grant behind the request's access token (call after {@link #tokenState} said VALID). */
    protected IssuedGrant grant(FakeRequest request) {
        return tokens.grant(platform(), accessToken(request));
    }

    protected FakeResponse notFound(FakeRequest request) {
        return json(404, object().put("message", "the fake " + platform() + " has no endpoint " + request.method() + " "
                + request.path()));
    }

    protected ObjectNode object() {
        return mapper.createObjectNode();
    }

    protected FakeResponse json(int status, JsonNode body) {
        try {
            return FakeResponse.json(status, mapper.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a fake answer cannot be serialized", e);
        }
    }

    /** The request's JSON body, or null when it is not JSON. */
    protected JsonNode jsonBody(FakeRequest request) {
        if (request.body() == null || request.body().isBlank()) {
            return null;
        }
        try {
            JsonNode node = mapper.readTree(request.body());
            return node != null && node.isObject() ? node : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /**
     * An OpenID Connect ID token carrying {@code sub}. Its signature is random bytes: the fake publishes no keys, and
     * Herald reads the token straight from the token endpoint, which OpenID Connect accepts without checking it.
     */
    protected String idToken(String issuer, String audience, String subject, String name) {
        long now = Instant.now().getEpochSecond();
        ObjectNode claims = object().put("iss", issuer).put("aud", audience).put("sub", subject).put("iat", now)
                .put("exp", now + 3600);
        if (name != null) {
            claims.put("name", name);
        }
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String header = base64.encodeToString("{\"alg\":\"RS256\",\"kid\":\"herald-fake\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        return header + "." + base64.encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8)) + "."
                + FakeIds.token("", 86);
    }
}
