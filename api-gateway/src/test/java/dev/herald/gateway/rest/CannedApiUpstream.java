package dev.herald.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Stands in for profiles-, accounts- and posts-service behind the dashboard's profile and post pages, answering their
 * public operations with canned data in the real API's JSON shapes (snake_case envelopes, {@code meta} with
 * {@code next_cursor}, the error envelope with {@code details.parameter} or {@code details.errors}). It remembers each
 * request ({@code "METHOD /path?query"}) and each body it was sent, for tests to see what the pages asked for. It also
 * judges and creates posts for the CSV import ({@code POST /posts/validate}: an account id containing "unknown" does not
 * exist; {@code POST /posts}: one post per Idempotency-Key, replayed with 200). One class for every canned service,
 * so it is longer than most: the pages it serves share its data.
 */
public class CannedApiUpstream implements QuarkusTestResourceLifecycleManager {
    static final String ACME = "prf_aaaaaaaaaaaaaaaaaaaaaaa1";
    static final String BETA = "prf_bbbbbbbbbbbbbbbbbbbbbbb2";
    static final String SCHEDULED = "pst_aaaaaaaaaaaaaaaaaaaaaaa1";
    static final String FAILED = "pst_bbbbbbbbbbbbbbbbbbbbbbb2";
    static final String PUBLISHED = "pst_ccccccccccccccccccccccc3";
    static final String CONNECT_URL = "http://localhost:8081/connect/s/cs_token_0123456789";

    static final Queue<String> requests = new ConcurrentLinkedQueue<>();
    static final Queue<JsonNode> bodies = new ConcurrentLinkedQueue<>();
    /** The posts {@code POST /posts} created, by Idempotency-Key. */
    static final Map<String, String> createdByKey = new ConcurrentHashMap<>();

    private static final AtomicInteger CREATED = new AtomicInteger();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> POST_STATUSES =
            List.of("queued", "publishing", "published", "partially_failed", "failed", "canceled");
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::answer);
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of(
                "herald.services.profiles.url", url,
                "herald.services.accounts.url", url,
                "herald.services.posts.url", url,
                "herald.services.webhooks.url", url,
                "herald.services.usage.url", url);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        String rawQuery = exchange.getRequestURI().getRawQuery();
        byte[] body = exchange.getRequestBody().readAllBytes();
        requests.add(method + " " + path + (rawQuery == null ? "" : "?" + rawQuery));
        if (body.length > 0) {
            bodies.add(JSON.readTree(body));
        }
        Map<String, String> query = query(rawQuery);
        String[] segments = path.split("/");
        Answer answer = switch (method + " " + path.replaceAll("/[a-z]{3}_[a-z0-9_]+(/|$)", "/{id}$1")) {
            case "GET /profiles" -> profiles(query);
            case "GET /profiles/{id}" -> one(profile(path.substring(path.lastIndexOf('/') + 1)));
            case "GET /accounts" -> list(accountsOf(query.get("profile_id")), null);
            case "POST /connect-sessions" -> connectSession(JSON.readTree(body));
            case "GET /posts" -> posts(query);
            case "GET /posts/{id}" -> one(post(path.substring(path.lastIndexOf('/') + 1), null));
            case "DELETE /posts/{id}" -> cancel(path.substring(path.lastIndexOf('/') + 1));
            case "POST /posts/validate" -> validate(JSON.readTree(body));
            case "POST /posts" -> create(exchange.getRequestHeaders().getFirst("Idempotency-Key"), JSON.readTree(body));
            case "POST /accounts/{id}/reconnect-link" -> reconnectLink(segments[2]);
            case "GET /branding" -> one(branding(null));
            case "PUT /branding" -> setBranding(JSON.readTree(body));
            case "DELETE /branding" ->
                one(JSON.createObjectNode()
                        .put("id", "ws_x")
                        .put("object", "branding")
                        .put("deleted", true));
            default -> notFound();
        };
        byte[] bytes = JSON.writeValueAsBytes(answer.body());
        exchange.getResponseHeaders().add("content-type", "application/json");
        exchange.sendResponseHeaders(answer.status(), bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private record Answer(int status, JsonNode body) {}

    private static Answer profiles(Map<String, String> query) {
        // One profile a page, as if limit were 1: the second page is reached through the cursor.
        return "page2".equals(query.get("cursor"))
                ? list(List.of(profile(BETA)), null)
                : list(List.of(profile(ACME)), "page2");
    }

    private static ObjectNode profile(String id) {
        if (!id.equals(ACME) && !id.equals(BETA)) {
            return null;
        }
        ObjectNode profile = JSON.createObjectNode()
                .put("id", id)
                .put("name", id.equals(ACME) ? "Acme Shop" : "Beta Store")
                .put("mode", "test")
                .put("created_at", "2026-01-01T10:00:00Z")
                .put("updated_at", "2026-01-01T10:00:00Z");
        return id.equals(ACME) ? profile.put("external_id", "customer-42") : profile.putNull("external_id");
    }

    private static List<JsonNode> accountsOf(String profileId) {
        if (!ACME.equals(profileId)) {
            return List.of();
        }
        return List.of(
                account(
                        "acc_aaaaaaaaaaaaaaaaaaaaaaa1",
                        "linkedin",
                        "Acme Brand",
                        "acmebrand",
                        "connected",
                        "reauth_required",
                        "REVOKED_ACCESS_TOKEN: The token used in the request has been revoked by the user"),
                account(
                        "acc_bbbbbbbbbbbbbbbbbbbbbbb2",
                        "tiktok",
                        "Acme Clips",
                        "acmeclips",
                        "disconnected",
                        "disconnected",
                        null));
    }

    private static JsonNode account(
            String id, String platform, String name, String username, String status, String health, String reason) {
        ObjectNode account = JSON.createObjectNode()
                .put("id", id)
                .put("platform", platform)
                .put("profile_id", ACME)
                .put("name", name)
                .put("username", username)
                .put("status", status);
        account.putObject("health")
                .put("status", health)
                .put("reason", reason)
                .putNull("token_expires_at")
                .put("checked_at", "2026-01-03T10:00:00Z");
        return account.put("mode", "test")
                .put("connected_at", "2026-01-02T10:00:00Z")
                .putNull("disconnected_at")
                .put("created_at", "2026-01-02T10:00:00Z")
                .put("updated_at", "2026-01-02T10:00:00Z");
    }

    private static Answer reconnectLink(String accountId) {
        return one(JSON.createObjectNode()
                .put("account_id", accountId)
                .put("url", "http://127.0.0.1:8080/connect/reconnect/reconnect-token-of-" + accountId)
                .put("expires_at", "2030-01-08T10:00:00Z"));
    }

    private static Answer connectSession(JsonNode request) {
        String redirect = request.path("redirect_url").asText("");
        if (redirect.startsWith("http://") && !redirect.startsWith("http://localhost")) {
            ObjectNode error = JSON.createObjectNode()
                    .put("field", "redirect_url")
                    .put("code", "invalid_format")
                    .put(
                            "message",
                            "redirect_url must be an absolute https:// URL without a fragment (http:// only for localhost).");
            return error(
                    422,
                    "validation_failed",
                    "The request is invalid.",
                    "errors",
                    JSON.createArrayNode().add(error));
        }
        ObjectNode session = JSON.createObjectNode()
                .put("id", "cs_aaaaaaaaaaaaaaaaaaaaaaa1")
                .put("profile_id", request.path("profile_id").asText())
                .put("mode", "test")
                .put("status", "open");
        session.set(
                "platforms",
                request.has("platforms")
                        ? request.get("platforms")
                        : JSON.createArrayNode().add("linkedin"));
        session.put("redirect_url", redirect.isEmpty() ? null : redirect)
                .putNull("embed_origin")
                .put("expires_at", "2030-01-01T11:00:00Z")
                .putNull("completed_at")
                .putNull("revoked_at")
                .put("created_at", "2030-01-01T10:00:00Z")
                .put("updated_at", "2030-01-01T10:00:00Z")
                .putNull("locale")
                .put("url", CONNECT_URL);
        session.set("account_ids", JSON.createArrayNode());
        return new Answer(201, JSON.createObjectNode().set("data", session));
    }

    private static Answer posts(Map<String, String> query) {
        String status = query.get("status");
        if (status != null && !POST_STATUSES.contains(status)) {
            return error(
                    400,
                    "invalid_request",
                    "status must be one of " + String.join(", ", POST_STATUSES) + ".",
                    "parameter",
                    JSON.getNodeFactory().textNode("status"));
        }
        // Newest first, two a page.
        List<JsonNode> matching = Stream.<JsonNode>of(post(PUBLISHED, null), post(FAILED, null), post(SCHEDULED, null))
                .filter(post -> status == null || post.path("status").asText().equals(status))
                .filter(post -> query.get("platform") == null
                        || post.path("targets").get(0).path("platform").asText().equals(query.get("platform")))
                .toList();
        if ("posts2".equals(query.get("cursor"))) {
            return list(matching.subList(Math.min(2, matching.size()), matching.size()), null);
        }
        return list(matching.subList(0, Math.min(2, matching.size())), matching.size() > 2 ? "posts2" : null);
    }

    private static ObjectNode post(String id, String status) {
        ObjectNode target = JSON.createObjectNode()
                .put("account_id", "acc_aaaaaaaaaaaaaaaaaaaaaaa1")
                .put("platform", "linkedin")
                .put("profile_id", ACME)
                .put("attempts", 0);
        ObjectNode post =
                JSON.createObjectNode().put("id", id).put("mode", "test").putNull("media");
        switch (id) {
            case SCHEDULED -> {
                post.put("text", "Spring sale starts tomorrow").put("scheduled_at", "2030-03-01T09:00:00Z");
                target.put("status", status == null ? "queued" : status).putNull("completed_at");
            }
            case FAILED -> {
                post.put("text", "A post that failed").putNull("scheduled_at");
                target.put("platform", "tiktok")
                        .put("status", "failed")
                        .put("attempts", 3)
                        .put("completed_at", "2026-02-01T10:00:05Z");
                target.putObject("error")
                        .put("code", "provider_error")
                        .put("message", "TikTok refused the video: too short.")
                        .put("retryable", false)
                        .put("category", "media")
                        .put("action", "replace_media")
                        .putObject("details");
                ObjectNode firstComment = target.putObject("first_comment").put("status", "failed");
                firstComment
                        .putObject("error")
                        .put("code", "target_not_published")
                        .put(
                                "message",
                                "The post was not published on this account, so its first comment was not posted.")
                        .put("retryable", false)
                        .put("category", "platform")
                        .put("action", "retry_later")
                        .putObject("details");
            }
            case PUBLISHED -> {
                post.put("text", "Hello from Herald").putNull("scheduled_at");
                post.putObject("first_comment").put("text", "More in the comments <3");
                target.put("status", "published")
                        .put("attempts", 1)
                        .put("provider_post_id", "urn:li:share:1")
                        .put("url", "https://www.linkedin.com/feed/update/urn:li:share:1")
                        .put("completed_at", "2026-02-02T10:00:02Z");
                target.putObject("first_comment")
                        .put("status", "published")
                        .put("comment_id", "urn:li:comment:(urn:li:activity:1,2)");
            }
            default -> {
                return null;
            }
        }
        String postStatus = target.path("status").asText();
        post.put("status", postStatus)
                .put("created_at", "2026-02-0" + (id.equals(SCHEDULED) ? 1 : id.equals(FAILED) ? 2 : 3) + "T10:00:00Z")
                .put("updated_at", "2026-02-03T10:00:00Z");
        post.putObject("platform_options");
        post.set("targets", JSON.createArrayNode().add(target));
        return post;
    }

    private static Answer validate(JsonNode request) {
        ObjectNode validation = JSON.createObjectNode();
        ArrayNode problems = validation.putArray("problems");
        if (request.path("text").asText().isEmpty()) {
            problems.addObject()
                    .put("field", "text")
                    .put("code", "required")
                    .put("message", "text is required when the post has no media.");
        }
        ArrayNode targets = validation.putArray("targets");
        boolean valid = problems.isEmpty();
        for (JsonNode account : request.path("account_ids")) {
            ObjectNode target = targets.addObject().put("account_id", account.asText());
            ArrayNode targetProblems = target.putArray("problems");
            if (account.asText().contains("unknown")) {
                target.putNull("platform");
                targetProblems
                        .addObject()
                        .put("field", "account_ids[" + (targets.size() - 1) + "]")
                        .put("code", "invalid_value")
                        // Worded both ways posts-service words target problems: naming the account or not.
                        .put(
                                "message",
                                account.asText().endsWith("2")
                                        ? "No account " + account.asText() + " exists in this workspace and mode."
                                        : "No such account in this workspace and mode.");
                valid = false;
            } else {
                target.put("platform", "linkedin");
            }
        }
        validation.put("valid", valid);
        return one(validation);
    }

    private static Answer create(String key, JsonNode request) {
        if (key == null) {
            return error(400, "invalid_request", "POST /posts needs an Idempotency-Key header.", null, null);
        }
        boolean replay = createdByKey.containsKey(key);
        String id =
                createdByKey.computeIfAbsent(key, ignored -> String.format("pst_imp%017d", CREATED.incrementAndGet()));
        ObjectNode post = JSON.createObjectNode()
                .put("id", id)
                .put("text", request.path("text").asText())
                .put("status", "queued")
                .put("mode", "test");
        return new Answer(replay ? 200 : 202, JSON.createObjectNode().set("data", post));
    }

    private static Answer cancel(String id) {
        if (id.equals(SCHEDULED)) {
            return one(post(id, "canceled"));
        }
        if (post(id, null) != null) {
            return error(
                    409,
                    "post_not_cancelable",
                    "Only a queued post can be canceled.",
                    "status",
                    JSON.getNodeFactory().textNode("published"));
        }
        return notFound();
    }

    /** The saved branding (Acme's), or the one {@code PUT /branding} was sent. */
    private static ObjectNode branding(JsonNode sent) {
        ObjectNode branding = JSON.createObjectNode();
        if (sent == null) {
            branding.put("display_name", "Acme Social")
                    .put("logo_url", "https://acme.example/logo.png")
                    .put("hosted_logo_url", "http://127.0.0.1:8080/connect/logos/" + "ab".repeat(32))
                    .put("accent_color", "#0b57d0")
                    .put("support_url", "https://acme.example/help")
                    .putNull("privacy_url");
        } else {
            for (String field : List.of("display_name", "logo_url", "accent_color", "support_url", "privacy_url")) {
                branding.set(field, sent.path(field).isMissingNode() ? JSON.nullNode() : sent.get(field));
            }
            branding.putNull("hosted_logo_url");
        }
        return branding.put("updated_at", "2030-01-01T10:00:00Z");
    }

    /** {@code accent_color} {@code #ffcc00} is refused as accounts-service refuses it (too light). */
    private static Answer setBranding(JsonNode sent) {
        if ("#ffcc00".equals(sent.path("accent_color").asText())) {
            Answer refused = error(422, "validation_failed", "The request has invalid fields.", null, null);
            ((ObjectNode) refused.body().path("error").path("details"))
                    .putArray("errors")
                    .addObject()
                    .put("field", "accent_color")
                    .put("code", "invalid_value")
                    .put("message", "accent_color #ffcc00 has a contrast ratio of 1.57:1 against white.");
            return refused;
        }
        return one(branding(sent));
    }

    private static Answer one(JsonNode data) {
        return data == null
                ? notFound()
                : new Answer(200, JSON.createObjectNode().set("data", data));
    }

    private static Answer list(List<JsonNode> items, String nextCursor) {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode data = body.putArray("data");
        items.forEach(data::add);
        body.putObject("meta").put("next_cursor", nextCursor).put("has_more", nextCursor != null);
        return new Answer(200, body);
    }

    private static Answer notFound() {
        return error(404, "not_found", "No such resource.", null, null);
    }

    private static Answer error(int status, String code, String message, String detail, JsonNode value) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode error = body.putObject("error").put("code", code).put("message", message);
        ObjectNode details = error.putObject("details");
        if (detail != null) {
            details.set(detail, value);
        }
        body.put("request_id", "req_000000000000000000000000");
        return new Answer(status, body);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new LinkedHashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                query.put(
                        URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return query;
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /**
     * Started after the resources every test class gets (EchoUpstream, order 0): sequential resources start in this
     * order and a later one's configuration wins, so the services are this one and not the echo.
     */
    @Override
    public int order() {
        return 100;
    }
}
