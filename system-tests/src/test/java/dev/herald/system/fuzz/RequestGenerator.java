package dev.herald.system.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.system.fuzz.OpenApiContract.Operation;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Schema-driven requests for one operation of the document: a valid one (parameters and body generated from the
 * schemas, ids taken from the seeded workspace), or a valid one with exactly one thing broken. Everything random
 * comes from the one seeded {@link Random}, so a run replays from its seed (as far as the suite's own state,
 * such as times and delivery outcomes, allows).
 */
public final class RequestGenerator {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** The id components of the document and the pool kind of each. */
    private static final Map<String, String> ID_KINDS = Map.ofEntries(
            Map.entry("ProfileId", "prf"),
            Map.entry("AccountId", "acc"),
            Map.entry("PostId", "pst"),
            Map.entry("PostSeriesId", "ser"),
            Map.entry("ConnectSessionId", "cs"),
            Map.entry("CommentId", "cmt"),
            Map.entry("WebhookEndpointId", "whe"),
            Map.entry("EventId", "evt"),
            Map.entry("DeliveryId", "dlv"),
            Map.entry("RequestId", "req"),
            Map.entry("PinterestId", "board"));
    /** The gateway refuses bodies above 1 MiB. */
    private static final int MAX_BODY_BYTES = 1024 * 1024;

    /** The credentials requests are sent with; {@code narrow} has only {@code profiles:read}. */
    public record Credentials(String full, String narrow) {}

    private final OpenApiContract contract;
    private final IdPool pool;
    private final Random random;
    private final Credentials credentials;
    private final String receiverUrl;
    /** The last accepted post's Idempotency-Key and body, for exact replays (HTTP 200, Idempotency-Replayed). */
    private Map.Entry<String, byte[]> lastPost;

    public RequestGenerator(
            OpenApiContract contract, IdPool pool, Random random, Credentials credentials, String receiverUrl) {
        this.contract = contract;
        this.pool = pool;
        this.random = random;
        this.credentials = credentials;
        this.receiverUrl = receiverUrl;
    }

    /** Remembers an accepted post so a later valid request may replay it exactly. */
    public void accepted(FuzzRequest request) {
        request.headers().stream()
                .filter(h -> h.getKey().equals("Idempotency-Key"))
                .findFirst()
                .ifPresent(h -> lastPost = Map.entry(h.getValue(), request.body()));
    }

    /** A request under construction: parts a mutation can still change. */
    private final class Draft {
        final Operation operation;
        final Map<String, String> pathParameters = new LinkedHashMap<>();
        final Map<String, String> query = new LinkedHashMap<>();
        final List<Map.Entry<String, String>> headers = new ArrayList<>();
        String credential = credentials.full();
        String contentType;
        JsonNode body;
        /** Replaces the serialized body (malformed JSON, oversized bodies). */
        byte[] rawBody;
        /** Replaces the path built from the parameters (a cursor's own page, whose parent it is bound to). */
        String fixedPath;

        Draft(Operation operation) {
            this.operation = operation;
        }

        FuzzRequest build(String variant) {
            String path = fixedPath != null ? fixedPath : operation.template();
            for (Map.Entry<String, String> parameter : pathParameters.entrySet()) {
                path = path.replace(
                        "{" + parameter.getKey() + "}",
                        java.net.URLEncoder.encode(parameter.getValue(), StandardCharsets.UTF_8));
            }
            List<Map.Entry<String, String>> sent = new ArrayList<>();
            if (credential != null) {
                sent.add(Map.entry("Authorization", "Bearer " + credential));
            }
            byte[] bytes = rawBody != null
                    ? rawBody
                    : body == null ? null : body.toString().getBytes(StandardCharsets.UTF_8);
            if (bytes != null && contentType != null) {
                sent.add(Map.entry("Content-Type", contentType));
            }
            sent.addAll(headers);
            return new FuzzRequest(operation.method(), path, new LinkedHashMap<>(query), sent, bytes, variant);
        }
    }

    public FuzzRequest generate(Operation operation, boolean valid) {
        Draft draft = validDraft(operation);
        if (valid) {
            if ("createPost".equals(operation.id()) && lastPost != null && random.nextInt(5) == 0) {
                draft.headers.clear();
                draft.headers.add(Map.entry("Idempotency-Key", lastPost.getKey()));
                draft.rawBody = lastPost.getValue();
            }
            return draft.build("valid");
        }
        List<Function<Draft, String>> mutations = new ArrayList<>(MUTATIONS);
        while (!mutations.isEmpty()) {
            String variant = mutations.remove(random.nextInt(mutations.size())).apply(draft);
            if (variant != null) {
                return draft.build(variant);
            }
        }
        throw new IllegalStateException("no mutation applies to " + operation.id());
    }

    // ---- valid requests ------------------------------------------------------------------------------------

    private Draft validDraft(Operation operation) {
        Draft draft = new Draft(operation);
        boolean withCursor = false;
        for (JsonNode parameter : contract.parameters(operation)) {
            String name = parameter.path("name").asText();
            String in = parameter.path("in").asText();
            JsonNode schema = parameter.path("schema");
            switch (in) {
                case "path" -> draft.pathParameters.put(name, text(value(schema, operation.id() + "." + name)));
                case "header" ->
                    draft.headers.add(Map.entry(
                            name,
                            "Idempotency-Key".equals(name)
                                    ? "fuzz-" + new UUID(random.nextLong(), random.nextLong())
                                    : text(value(schema, name))));
                case "query" -> {
                    if ("cursor".equals(name)) {
                        withCursor = true;
                    } else if (random.nextInt(5) < 2) {
                        draft.query.put(name, text(value(schema, operation.id() + "." + name)));
                    }
                }
                default -> throw new IllegalStateException("parameter in " + in);
            }
        }
        if (withCursor && random.nextInt(3) == 0) {
            // A cursor only continues the list it came from: same filters, so take the page's query along.
            pool.cursor(operation.id(), random).ifPresent(cursor -> {
                draft.query.clear();
                draft.query.putAll(cursor.query());
                draft.query.put("cursor", cursor.cursor());
                draft.fixedPath = cursor.path();
            });
        }
        if ("listComments".equals(operation.id())
                && !draft.query.containsKey("post_id")
                && !draft.query.containsKey("account_id")) {
            pool.pick("pst", random).ifPresent(post -> draft.query.put("post_id", post));
        }
        if (operation.hasBody()) {
            JsonNode schema = contract.requestSchema(operation);
            String name = OpenApiContract.refName(schema).orElse(operation.id());
            draft.contentType = "application/json";
            draft.body = "EmptyRequest".equals(name) && random.nextInt(3) == 0 ? null : value(schema, name);
        }
        return draft;
    }

    private static String text(JsonNode value) {
        return value.isTextual() ? value.asText() : value.toString();
    }

    /**
     * A value valid against the schema. {@code context} names where it goes ({@code CreatePostRequest.text}), so
     * the fields whose schema alone cannot make a request succeed (a reachable webhook receiver, an account that
     * can take a post without media) get realistic values most of the time.
     */
    JsonNode value(JsonNode schema, String context) {
        Optional<JsonNode> realistic = realistic(context);
        if (realistic.isPresent()) {
            return realistic.get();
        }
        Optional<String> ref = OpenApiContract.refName(schema);
        if (ref.isPresent() && ID_KINDS.containsKey(ref.get())) {
            String kind = ID_KINDS.get(ref.get());
            Optional<String> known = random.nextInt(10) < 9 ? pool.pick(kind, random) : Optional.empty();
            return NODES.textNode(known.orElseGet(() -> randomId(kind)));
        }
        String component = ref.orElse(null);
        JsonNode s = contract.resolve(schema);
        if (s.has("const")) {
            return s.get("const");
        }
        if (s.has("enum")) {
            List<JsonNode> values = new ArrayList<>();
            s.get("enum").forEach(v -> {
                if (!v.isNull() || random.nextInt(4) == 0) {
                    values.add(v);
                }
            });
            return values.isEmpty() ? s.get("enum").get(0) : values.get(random.nextInt(values.size()));
        }
        if (s.has("oneOf") || s.has("anyOf")) {
            JsonNode branches = s.has("oneOf") ? s.get("oneOf") : s.get("anyOf");
            List<JsonNode> choices = new ArrayList<>();
            branches.forEach(branch -> {
                if (!"null".equals(branch.path("type").asText()) || random.nextInt(5) == 0) {
                    choices.add(branch);
                }
            });
            JsonNode branch = choices.isEmpty() ? branches.get(0) : choices.get(random.nextInt(choices.size()));
            return value(branch, context);
        }
        String type = type(s);
        switch (type) {
            case "null":
                return NODES.nullNode();
            case "boolean":
                return NODES.booleanNode(random.nextBoolean());
            case "integer": {
                long min = s.path("minimum").asLong(0);
                long max = s.path("maximum").asLong(min + 1000);
                return NODES.numberNode(min + (long) (random.nextDouble() * (max - min + 1)));
            }
            case "array": {
                int min = s.path("minItems").asInt(0);
                int max = Math.min(s.path("maxItems").asInt(min + 3), min + 3);
                int size = min + random.nextInt(max - min + 1);
                ArrayNode array = NODES.arrayNode();
                for (int attempt = 0; array.size() < size && attempt < size * 5; attempt++) {
                    JsonNode item = value(s.path("items"), context + "[]");
                    if (!s.path("uniqueItems").asBoolean() || !contains(array, item)) {
                        array.add(item);
                    }
                }
                return array;
            }
            case "object": {
                ObjectNode object = NODES.objectNode();
                Set<String> required = new java.util.HashSet<>();
                s.path("required").forEach(r -> required.add(r.asText()));
                String owner = component != null ? component : context;
                for (Iterator<Map.Entry<String, JsonNode>> it =
                                s.path("properties").fields();
                        it.hasNext(); ) {
                    Map.Entry<String, JsonNode> property = it.next();
                    if (required.contains(property.getKey()) || random.nextBoolean()) {
                        JsonNode v = value(property.getValue(), owner + "." + property.getKey());
                        if (!v.isMissingNode()) {
                            object.set(property.getKey(), v);
                        }
                    }
                }
                return object;
            }
            case "string":
                return NODES.textNode(string(s, context));
            default:
                throw new IllegalStateException("no generator for type " + type + " at " + context);
        }
    }

    /** The schema's type; of a nullable type (["string", "null"]), null one time in five. */
    private String type(JsonNode s) {
        JsonNode type = s.path("type");
        if (type.isArray()) {
            List<String> types = new ArrayList<>();
            type.forEach(t -> types.add(t.asText()));
            if (types.contains("null") && (types.size() == 1 || random.nextInt(5) == 0)) {
                return "null";
            }
            types.remove("null");
            return types.get(random.nextInt(types.size()));
        }
        return type.asText(s.has("properties") ? "object" : "string");
    }

    private String string(JsonNode s, String context) {
        String pattern = s.path("pattern").asText(null);
        if (pattern != null) {
            return switch (pattern) {
                // words() starts with a letter and never ends with a space: a batch item's idempotency_key too.
                case "\\S", "^[^<>]*$", "^[\\x20-\\x7E]+$", "^[\\x21-\\x7E]([\\x20-\\x7E]*[\\x21-\\x7E])?$" -> words(s);
                // A branding's or a connect session's display name: one line without control characters.
                case "^[^\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029]*$" -> words(s);
                // A branding's accent: dark channels (at most 0x60), so white text on it has the contrast it needs.
                case "^#[0-9a-fA-F]{6}$" ->
                    "#%02x%02X%02x".formatted(random.nextInt(0x61), random.nextInt(0x61), random.nextInt(0x61));
                case "^/" -> random.nextBoolean() ? "/api/v1/posts" : "/api/v1/profiles";
                case "^[Hh][Tt][Tt][Pp][Ss]://" -> "https://media.herald.invalid/fuzz/" + word(8) + ".jpg";
                case "^[0-9]{1,40}$" -> Long.toString(1 + (long) (random.nextDouble() * 1_000_000_000L));
                case "^([01][0-9]|2[0-3]):[0-5][0-9]$" -> "%02d:%02d".formatted(random.nextInt(24), random.nextInt(60));
                // A recurring post's period (repeat.every).
                case "^P[0-9]{1,9}[DWMY]$" -> "P" + (1 + random.nextInt(4)) + "DWM".charAt(random.nextInt(3));
                default ->
                    throw new IllegalStateException("no generator for pattern " + pattern + " at " + context
                            + ": teach RequestGenerator.string it");
            };
        }
        String format = s.path("format").asText("");
        if ("date-time".equals(format)) {
            return Instant.now()
                    .plus(10 + random.nextInt(60 * 24 * 30), ChronoUnit.MINUTES)
                    .truncatedTo(ChronoUnit.SECONDS)
                    .toString();
        }
        if ("uri".equals(format)) {
            return "https://app.example.com/" + word(6);
        }
        return words(s);
    }

    /** Letters and a space or two, within the schema's length bounds. */
    private String words(JsonNode s) {
        int min = Math.max(1, s.path("minLength").asInt(1));
        int max = Math.min(s.path("maxLength").asInt(min + 30), min + 30);
        int length = min + random.nextInt(max - min + 1);
        StringBuilder text = new StringBuilder("F");
        while (text.length() < length) {
            text.append(text.length() % 7 == 0 ? ' ' : (char) ('a' + random.nextInt(26)));
        }
        return text.toString().trim().isEmpty()
                ? "F"
                : text.substring(0, length).stripTrailing();
    }

    private String word(int length) {
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < length; i++) {
            word.append((char) ('a' + random.nextInt(26)));
        }
        return word.toString();
    }

    private String randomId(String kind) {
        if ("board".equals(kind)) {
            return Long.toString(1 + (long) (random.nextDouble() * 1_000_000_000L));
        }
        byte[] bytes = new byte[12];
        random.nextBytes(bytes);
        return kind + "_" + HexFormat.of().formatHex(bytes);
    }

    private static boolean contains(ArrayNode array, JsonNode item) {
        for (JsonNode element : array) {
            if (element.equals(item)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Values the schema allows but could not produce on its own, for the fields that decide whether a request can
     * succeed at all. Each is used most of the time, never always, so the schema's own values are sampled too.
     */
    private Optional<JsonNode> realistic(String context) {
        if (random.nextInt(5) == 0) {
            return Optional.empty();
        }
        if (context.equals("PostBatchRequestItem.idempotency_key")) {
            return Optional.of(NODES.textNode("fuzz-" + new UUID(random.nextLong(), random.nextLong())));
        }
        // A batch's post is a POST /posts body.
        String field = context.replace("PostBatchRequestItem.", "CreatePostRequest.");
        return Optional.ofNullable(
                switch (field) {
                    case "CreateWebhookEndpointRequest.url" -> NODES.textNode(receiverUrl);
                    case "CreatePostRequest.account_ids" -> {
                        // LinkedIn and Facebook sandbox accounts take a text-only post; the others need media or
                        // options.
                        ArrayNode ids = NODES.arrayNode();
                        pool.pick("acc:simple", random).ifPresent(ids::add);
                        yield ids.isEmpty() ? null : ids;
                    }
                    case "CreatePostRequest.media", "CreatePostRequest.platform_options" -> NODES.missingNode();
                    case "CreatePostRequest.text" -> NODES.textNode("Fuzz " + word(10));
                    // Now and then a recurring post that starts its series; mostly none.
                    case "CreatePostRequest.repeat" ->
                        random.nextInt(4) == 0
                                ? NODES.objectNode().put("every", "P1D").put("count", 2)
                                : NODES.missingNode();
                    case "AnalyticsConsentRequest.policy_version" -> NODES.textNode("2026-09-01");
                    case "CreateConnectSessionRequest.embed_origin" -> NODES.textNode("https://app.example.com");
                    case "CreateConnectSessionRequest.redirect_url" ->
                        NODES.textNode("https://app.example.com/connected");
                    case "CreateConnectSessionRequest.platforms" -> NODES.missingNode();
                    // A logo is fetched by the PUT: mostly none, so fuzzing does not wait on hosts that do not exist.
                    case "BrandingRequest.logo_url" -> NODES.missingNode();
                    case "CreateConnectSessionRequest.locale" ->
                        NODES.textNode(
                                List.of("en", "de-AT", "fr", "es", "pt-BR").get(random.nextInt(5)));
                    case "SetPostQueueRequest.timezone" ->
                        NODES.textNode(List.of("Europe/Berlin", "America/New_York", "UTC", "Asia/Tokyo")
                                .get(random.nextInt(4)));
                    default -> null;
                });
    }

    // ---- mutations: each breaks exactly one thing, or answers null when it does not apply ----------------------

    private final List<Function<Draft, String>> MUTATIONS = List.of(
            this::missingRequiredField,
            this::wrongType,
            this::nullValue,
            this::outOfRange,
            this::unknownField,
            this::badEnum,
            this::badIdInBody,
            this::badPathId,
            this::bodyNotAnObject,
            this::malformedJson,
            this::wrongContentType,
            this::oversizedBody,
            this::badLimit,
            this::badCursor,
            this::badQueryValue,
            this::badIdempotencyKey,
            this::noCredential,
            this::unknownCredential,
            this::missingScope);

    /** A top-level property of the body object, with its schema, chosen by the predicate. */
    private Optional<Map.Entry<String, JsonNode>> property(Draft draft, Predicate<Map.Entry<String, JsonNode>> which) {
        if (draft.body == null || !draft.body.isObject()) {
            return Optional.empty();
        }
        JsonNode schema = contract.resolve(contract.requestSchema(draft.operation));
        List<Map.Entry<String, JsonNode>> candidates = new ArrayList<>();
        schema.path("properties").fields().forEachRemaining(property -> {
            if (which.test(property)) {
                candidates.add(property);
            }
        });
        return candidates.isEmpty() ? Optional.empty() : Optional.of(candidates.get(random.nextInt(candidates.size())));
    }

    /** The property's schema with references and a nullable oneOf resolved to the non-null branch. */
    private JsonNode concrete(JsonNode schema) {
        JsonNode s = contract.resolve(schema);
        if (s.has("oneOf")) {
            for (JsonNode branch : s.get("oneOf")) {
                if (!"null".equals(branch.path("type").asText())) {
                    return contract.resolve(branch);
                }
            }
        }
        return s;
    }

    private static boolean nullable(JsonNode s) {
        if (s.path("type").isArray()) {
            for (JsonNode t : s.get("type")) {
                if ("null".equals(t.asText())) {
                    return true;
                }
            }
        }
        for (JsonNode branch : s.path("oneOf")) {
            if ("null".equals(branch.path("type").asText())) {
                return true;
            }
        }
        return false;
    }

    private String missingRequiredField(Draft draft) {
        JsonNode schema = contract.resolve(contract.requestSchema(draft.operation));
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        if (draft.body == null || !draft.body.isObject() || required.isEmpty()) {
            return null;
        }
        String field = required.get(random.nextInt(required.size()));
        ((ObjectNode) draft.body).remove(field);
        return "body.missing_required:" + field;
    }

    private String wrongType(Draft draft) {
        return property(draft, p -> draft.body.has(p.getKey()))
                .map(p -> {
                    JsonNode current = draft.body.get(p.getKey());
                    JsonNode wrong = current.isTextual()
                            ? NODES.numberNode(12345)
                            : current.isObject()
                                    ? NODES.arrayNode().add("x")
                                    : NODES.textNode("not-a-"
                                            + current.getNodeType().name().toLowerCase());
                    if (current.isNull()) {
                        wrong = NODES.booleanNode(true);
                    }
                    ((ObjectNode) draft.body).set(p.getKey(), wrong);
                    return "body.wrong_type:" + p.getKey();
                })
                .orElse(null);
    }

    private String nullValue(Draft draft) {
        return property(
                        draft,
                        p -> !nullable(contract.resolve(p.getValue()))
                                && !contract.resolve(p.getValue()).has("const"))
                .map(p -> {
                    ((ObjectNode) draft.body).putNull(p.getKey());
                    return "body.null:" + p.getKey();
                })
                .orElse(null);
    }

    private String outOfRange(Draft draft) {
        return property(draft, p -> {
                    JsonNode s = concrete(p.getValue());
                    return s.has("maxLength")
                            || s.has("minLength")
                            || s.has("maximum")
                            || s.has("minimum")
                            || s.has("maxItems")
                            || s.has("minItems");
                })
                .map(p -> {
                    JsonNode s = concrete(p.getValue());
                    ObjectNode body = (ObjectNode) draft.body;
                    if (s.has("maxLength")) {
                        // Oversized strings: one character beyond the limit.
                        body.put(
                                p.getKey(),
                                "https://" + "x".repeat(s.get("maxLength").asInt()));
                        return "body.too_long:" + p.getKey();
                    } else if (s.has("minLength") && s.get("minLength").asInt() > 0) {
                        body.put(p.getKey(), "");
                        return "body.too_short:" + p.getKey();
                    } else if (s.has("maximum")) {
                        body.put(p.getKey(), s.get("maximum").asLong() + 1);
                        return "body.above_maximum:" + p.getKey();
                    } else if (s.has("minimum")) {
                        body.put(p.getKey(), s.get("minimum").asLong() - 1);
                        return "body.below_minimum:" + p.getKey();
                    } else if (s.has("maxItems")) {
                        ArrayNode many = NODES.arrayNode();
                        for (int i = 0; i <= s.get("maxItems").asInt(); i++) {
                            many.add(randomId("acc"));
                        }
                        body.set(p.getKey(), many);
                        return "body.too_many_items:" + p.getKey();
                    }
                    body.set(p.getKey(), NODES.arrayNode());
                    return "body.too_few_items:" + p.getKey();
                })
                .orElse(null);
    }

    private String unknownField(Draft draft) {
        if (!draft.operation.hasBody()) {
            return null;
        }
        if (draft.body == null || !draft.body.isObject()) {
            draft.body = NODES.objectNode();
        }
        // Mass assignment: fields the server owns are unknown in a request body.
        String field = List.of("id", "status", "mode", "workspace_id", "created_at", "fuzz_unknown")
                .get(random.nextInt(6));
        ((ObjectNode) draft.body).put(field, "fuzz");
        return "body.unknown_field:" + field;
    }

    private String badEnum(Draft draft) {
        return property(
                        draft,
                        p -> draft.body.has(p.getKey())
                                && concrete(p.getValue()).has("enum"))
                .map(p -> {
                    ((ObjectNode) draft.body).put(p.getKey(), "not_a_value");
                    return "body.bad_enum:" + p.getKey();
                })
                .orElse(null);
    }

    private String badIdInBody(Draft draft) {
        return property(draft, p -> {
                    JsonNode s = contract.resolve(p.getValue());
                    JsonNode items = s.path("items");
                    return OpenApiContract.refName(p.getValue())
                                    .map(ID_KINDS::containsKey)
                                    .orElse(false)
                            || OpenApiContract.refName(items)
                                    .map(ID_KINDS::containsKey)
                                    .orElse(false);
                })
                .map(p -> {
                    String bad = badId();
                    JsonNode current = draft.body.get(p.getKey());
                    ((ObjectNode) draft.body)
                            .set(
                                    p.getKey(),
                                    current != null && current.isArray()
                                                    || contract.resolve(p.getValue())
                                                            .has("items")
                                            ? NODES.arrayNode().add(bad)
                                            : NODES.textNode(bad));
                    return "body.bad_id:" + p.getKey();
                })
                .orElse(null);
    }

    /** An id that cannot exist: a wrong prefix, the wrong length, upper-case hex or an injection attempt. */
    private String badId() {
        return List.of(
                        "usr_" + "a".repeat(24),
                        "prf_123",
                        "acc_" + "A".repeat(24),
                        "pst_" + "g".repeat(24),
                        "../../admin",
                        "acc_" + "0".repeat(24) + "' OR 1=1 --",
                        "%00")
                .get(random.nextInt(7));
    }

    private String badPathId(Draft draft) {
        if (draft.pathParameters.isEmpty()) {
            return null;
        }
        List<String> names = new ArrayList<>(draft.pathParameters.keySet());
        String name = names.get(random.nextInt(names.size()));
        draft.fixedPath = null; // a cursor's page path would hide the broken parameter
        draft.pathParameters.put(
                name,
                "board_id".equals(name) ? List.of("abc", "1".repeat(41), "-1").get(random.nextInt(3)) : badId());
        return "path.bad_id:" + name;
    }

    private String bodyNotAnObject(Draft draft) {
        if (!draft.operation.hasBody()) {
            return null;
        }
        draft.contentType = "application/json";
        draft.rawBody = List.of("[]", "\"text\"", "42", "null", "[{}]")
                .get(random.nextInt(5))
                .getBytes(StandardCharsets.UTF_8);
        return "body.not_an_object";
    }

    private String malformedJson(Draft draft) {
        if (!draft.operation.hasBody()) {
            return null;
        }
        draft.contentType = "application/json";
        draft.rawBody = List.of("{\"text\": ", "{'a':1}", "{\"a\":1}}", "{\"a\":01}", "\u00ff\u00fe")
                .get(random.nextInt(5))
                .getBytes(StandardCharsets.UTF_8);
        return "body.malformed_json";
    }

    private String wrongContentType(Draft draft) {
        if (!draft.operation.hasBody()) {
            return null;
        }
        draft.contentType = List.of("text/plain", "application/x-www-form-urlencoded", "application/xml")
                .get(random.nextInt(3));
        draft.rawBody = (draft.body == null ? "{}" : draft.body.toString()).getBytes(StandardCharsets.UTF_8);
        return "body.content_type:" + draft.contentType;
    }

    private String oversizedBody(Draft draft) {
        if (!draft.operation.hasBody()) {
            return null;
        }
        draft.contentType = "application/json";
        draft.rawBody = ("{\"text\":\"" + "x".repeat(MAX_BODY_BYTES) + "\"}").getBytes(StandardCharsets.UTF_8);
        return "body.over_1_mib";
    }

    private boolean hasQuery(Draft draft, String name) {
        return contract.parameters(draft.operation).stream()
                .anyMatch(p -> name.equals(p.path("name").asText())
                        && "query".equals(p.path("in").asText()));
    }

    private String badLimit(Draft draft) {
        if (!hasQuery(draft, "limit")) {
            return null;
        }
        String limit = List.of("0", "101", "-1", "ten", "1.5", "", "99999999999999999999")
                .get(random.nextInt(7));
        draft.query.put("limit", limit);
        // The empty one has its own name: the services once read it as absent (see PaginatedRequestFilter).
        return limit.isEmpty() ? "query.empty_limit" : "query.bad_limit:" + limit;
    }

    private String badCursor(Draft draft) {
        if (!hasQuery(draft, "cursor")) {
            return null;
        }
        int max = draft.operation.template().contains("/boards") ? 8192 : 4096;
        Optional<IdPool.Cursor> real = pool.cursor(draft.operation.id(), random);
        int choice = random.nextInt(4);
        if (choice == 0 && real.isPresent()) {
            // Tampered: one character of a real cursor changed.
            String cursor = real.get().cursor();
            // Not the last character: its low bits may be base64 padding, so changing it might change nothing.
            int at = random.nextInt(Math.max(1, cursor.length() - 1));
            char flipped = cursor.charAt(at) == 'A' ? 'B' : 'A';
            draft.query.putAll(real.get().query());
            draft.fixedPath = real.get().path();
            draft.query.put("cursor", cursor.substring(0, at) + flipped + cursor.substring(at + 1));
            return "query.tampered_cursor";
        }
        if (choice == 2) {
            // Its own name: the document says 1 character at least, and the services once read it as absent.
            draft.query.put("cursor", "");
            return "query.empty_cursor";
        }
        draft.query.put("cursor", choice == 1 ? "x".repeat(max + 1) : "not-a-cursor-" + word(5));
        return "query.bad_cursor";
    }

    private String badQueryValue(Draft draft) {
        List<JsonNode> filters = contract.parameters(draft.operation).stream()
                .filter(p -> "query".equals(p.path("in").asText())
                        && !Set.of("limit", "cursor").contains(p.path("name").asText()))
                .toList();
        if (filters.isEmpty()) {
            return null;
        }
        JsonNode filter = filters.get(random.nextInt(filters.size()));
        String name = filter.path("name").asText();
        JsonNode s = contract.resolve(filter.path("schema"));
        String bad;
        if (OpenApiContract.refName(filter.path("schema"))
                .map(ID_KINDS::containsKey)
                .orElse(false)) {
            bad = badId();
        } else if (s.has("enum")) {
            bad = "not_a_value";
        } else if (s.has("maximum")) {
            bad = random.nextBoolean() ? Long.toString(s.get("maximum").asLong() + 1) : "abc";
        } else if (s.has("maxLength")) {
            bad = "q".repeat(s.get("maxLength").asInt() + 1);
        } else {
            return null;
        }
        draft.query.put(name, bad);
        return "query.bad_value:" + name;
    }

    private String badIdempotencyKey(Draft draft) {
        if (draft.headers.stream().noneMatch(h -> h.getKey().equals("Idempotency-Key"))) {
            return null;
        }
        String original = draft.headers.get(0).getValue();
        draft.headers.clear();
        switch (random.nextInt(4)) {
            case 0:
                return "header.idempotency_key_missing";
            case 1:
                draft.headers.add(Map.entry("Idempotency-Key", "k".repeat(256)));
                return "header.idempotency_key_too_long";
            case 2:
                draft.headers.add(Map.entry("Idempotency-Key", "fuzz\tkey"));
                return "header.idempotency_key_not_printable";
            default:
                draft.headers.add(Map.entry("Idempotency-Key", original));
                draft.headers.add(Map.entry("Idempotency-Key", original + "-other"));
                return "header.idempotency_key_repeated";
        }
    }

    private String noCredential(Draft draft) {
        draft.credential = null;
        return "auth.none";
    }

    private String unknownCredential(Draft draft) {
        draft.credential = List.of("sk_test_" + "0".repeat(32), "sk_live_short", "not-a-key", "sk_test_" + word(32))
                .get(random.nextInt(4));
        return "auth.unknown";
    }

    private String missingScope(Draft draft) {
        String scope = draft.operation.node().path("x-herald-scope").asText(null);
        if (scope == null
                || "profiles:read".equals(scope)
                || draft.operation.node().path("x-herald-scope").isNull()) {
            return null;
        }
        draft.credential = credentials.narrow();
        return "auth.missing_scope:" + scope;
    }
}
