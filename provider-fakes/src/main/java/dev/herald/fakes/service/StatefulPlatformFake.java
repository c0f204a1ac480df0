package dev.herald.fakes.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeComment;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * What every fake platform keeps: the shared token and code stores, its own published items and the comments posted on
 * them through it. The fakes are {@code @Singleton}s (no client proxy, so their state can live in final fields here).
 */
public abstract class StatefulPlatformFake implements PlatformFake {
    protected final IssuedTokens tokens;
    protected final AuthorizationServer authorization;
    protected final ObjectMapper mapper;
    private static final int MAX_GRAPH_COMMENTS_PAGE = 100;
    private final Deque<ObjectNode> published = new ConcurrentLinkedDeque<>();
    /** Comments posted through the fake, oldest first (the seeded ones are computed, never kept). */
    private final Deque<FakeComment> comments = new ConcurrentLinkedDeque<>();

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
        comments.clear();
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

    /** Keeps a comment posted through the fake: later reads of its item show it. */
    protected FakeComment keepComment(FakeComment comment) {
        comments.addLast(comment);
        return comment;
    }

    /**
     * The item's comments, oldest first: its {@link SeededComments} (given the platform's ids, authors and time by
     * {@code seeded}), then those posted through the fake, in the order they were posted.
     */
    protected List<FakeComment> commentsOn(String itemId, Function<SeededComments.Seed, FakeComment> seeded) {
        List<FakeComment> all = new ArrayList<>();
        SeededComments.of(itemId).forEach(seed -> all.add(seeded.apply(seed)));
        comments.forEach(comment -> {
            if (comment.itemId().equals(itemId)) {
                all.add(comment);
            }
        });
        return all;
    }

    /**
     * The item's comments, oldest first, for a platform whose seeded comments are dated at the item's publication
     * ({@code at}) and whose ids derive from the seed's index alone ({@code seededId}); the commenter is named by the
     * platform's id and display name for them.
     */
    protected List<FakeComment> commentsOn(
            String itemId,
            Instant at,
            IntFunction<String> seededId,
            Function<SeededComments.Commenter, String> authorId,
            Function<SeededComments.Commenter, String> authorName) {
        return commentsOn(
                itemId,
                seed -> new FakeComment(
                        seededId.apply(seed.index()),
                        itemId,
                        seed.parentIndex() == null ? null : seededId.apply(seed.parentIndex()),
                        seed.text(),
                        authorId.apply(seed.author()),
                        authorName.apply(seed.author()),
                        at,
                        false));
    }

    /** The replies to a top-level comment among an item's comments, oldest first. */
    protected static List<FakeComment> repliesTo(List<FakeComment> comments, String commentId) {
        return comments.stream()
                .filter(comment -> commentId.equals(comment.parentId()))
                .toList();
    }

    /**
     * An opaque paging cursor or page token for a position in a listing (here, the id of the last item shown, or an
     * offset): platforms hand back base64 text and take it back unchanged.
     */
    protected static String cursor(String position) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(position.getBytes(StandardCharsets.UTF_8));
    }

    /** The position a {@link #cursor} stands for, or null when the text is not one. */
    protected static String position(String cursor) {
        try {
            return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * One page of comments as both Graph APIs (Facebook's and Instagram's) page them: {@code limit} (25, at most
     * 100) after the {@code after} cursor, with {@code paging.cursors} and, when more follow, {@code paging.next}.
     */
    protected FakeResponse graphCommentPage(
            FakeRequest request, String after, List<FakeComment> listed, Function<FakeComment, ObjectNode> shown) {
        int start = 0;
        if (after != null) {
            start = 1 + listed.stream().map(FakeComment::id).toList().indexOf(position(after));
            if (start == 0) {
                return json(
                        400,
                        GraphErrorShapes.error(
                                object(), "OAuthException", 100, null, "(#100) The after cursor is not valid", false));
            }
        }
        int limit = Math.min(MAX_GRAPH_COMMENTS_PAGE, request.intQueryParameter("limit", 25));
        List<FakeComment> page = listed.subList(start, Math.min(listed.size(), start + limit));
        ObjectNode body = object();
        ArrayNode data = body.putArray("data");
        page.forEach(each -> data.add(shown.apply(each)));
        if (!page.isEmpty()) {
            ObjectNode paging = body.putObject("paging");
            paging.putObject("cursors")
                    .put("before", cursor(page.get(0).id()))
                    .put("after", cursor(page.get(page.size() - 1).id()));
            if (start + page.size() < listed.size()) {
                paging.put(
                        "next",
                        withParameter(
                                request,
                                "after",
                                cursor(page.get(page.size() - 1).id())));
            }
        }
        return json(200, body);
    }

    /**
     * The URL of the request with one query parameter set to another value (a listing's next page), on the host the
     * caller reached the fake at.
     */
    protected String withParameter(FakeRequest request, String name, String value) {
        StringBuilder query = new StringBuilder();
        if (request.rawQuery() != null) {
            for (String pair : request.rawQuery().split("&")) {
                if (!pair.isEmpty() && !pair.equals(name) && !pair.startsWith(name + "=")) {
                    query.append(pair).append('&');
                }
            }
        }
        query.append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        return "http://" + request.header("host") + "/" + platform() + request.path() + "?" + query;
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
        return json(
                404,
                object().put(
                                "message",
                                "the fake " + platform() + " has no endpoint " + request.method() + " "
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
        ObjectNode claims = object().put("iss", issuer)
                .put("aud", audience)
                .put("sub", subject)
                .put("iat", now)
                .put("exp", now + 3600);
        if (name != null) {
            claims.put("name", name);
        }
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String header = base64.encodeToString(
                "{\"alg\":\"RS256\",\"kid\":\"herald-fake\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        return header + "." + base64.encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8)) + "."
                + FakeIds.token("", 86);
    }
}
