package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.math.BigInteger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Live comments end to end against the provider fakes: a Facebook Page, an Instagram
 * professional account, a YouTube channel and a LinkedIn organization connected once, through the hosted page, in one
 * live workspace, each with one post published through its fake. For each: {@code GET /comments?post_id=} reads the
 * item's three seeded comments from the platform (the fakes' {@code SeededComments}, computed here again from the item's
 * id: texts, authors as the platform names them, the reply under its comment, Herald's stable ids) with the one request
 * the live reader documents, made with the account's token; {@code POST /comments} replies on the platform in the
 * comment's thread as the account (a reply to a reply goes to the top-level comment, as the platforms take it),
 * answering 201 with {@code from_account: true}; {@code GET /comments?account_id=} right after lists the replies too,
 * from what Herald stored (the post was read less than 60 s ago), without asking the platform. Metering: every
 * request to the platform is one {@code comment_requests}; every API call one {@code api_requests}, the read answered
 * from the store included (it is free of comment requests only). No refresher reads comments in the background, so the
 * numbers are exact. LinkedIn lists a post's top-level comments only (replies are read at the comment's URN): its
 * seeded reply is never read, and the reply to a reply answers Herald's own reply instead. HTTP only: the gateway and
 * the fakes' control API.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ResourceLock(RunningSuite.FACEBOOK_FAKE)
@ResourceLock(RunningSuite.INSTAGRAM_FAKE)
@ResourceLock(RunningSuite.LINKEDIN_FAKE)
@ResourceLock(RunningSuite.PINTEREST_FAKE)
@ResourceLock(RunningSuite.TIKTOK_FAKE)
@ResourceLock(RunningSuite.YOUTUBE_FAKE)
class LiveCommentsIT {
    private static final DateTimeFormatter GRAPH_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx");
    private static final String ORGANIZATION = "urn:li:organization:90421377";
    private static final String PAGE_ID = "108765432109876";
    private static final String CHANNEL_ID = "UCq3HeraldFakeChannel0001";
    /** A reply's text: a comma, an ampersand, an apostrophe and a non-ASCII letter, so every encoding shows. */
    private static final String REPLY = "Thanks, we'll share more soon & often. Merci, Zoë!";

    private static final String REPLY_IN_THREAD = "Happy to help here too.";

    /** Someone who comments on the fakes, as each platform names them ({@code SeededComments.CAST}). */
    record Commenter(
            String name, String facebookId, String instagramUsername, String youtubeChannelId, String linkedinUrn) {}

    private static final List<Commenter> CAST = List.of(
            new Commenter(
                    "Mara Quinn",
                    "7104583926614870",
                    "mara.quinn.bakes",
                    "UCmaraQuinnFakeViewer001",
                    "urn:li:person:mQ7rAqu1nn"),
            new Commenter(
                    "Theo Lindqvist",
                    "5531902847716632",
                    "theo.lindqvist",
                    "UCtheoLindqvistFakeView2",
                    "urn:li:person:tL1ndqv1sT"),
            new Commenter(
                    "Ada Okafor",
                    "6248813095527719",
                    "ada.okafor",
                    "UCadaOkaforFakeViewer003",
                    "urn:li:person:aD4oKaf0rX"),
            new Commenter(
                    "Jun Park",
                    "3892057716430028",
                    "junpark.eats",
                    "UCjunParkFakeViewer00004",
                    "urn:li:person:jUnP4rk9Zq"));
    private static final List<String> TOP = List.of(
            "This looks great!",
            "Where can I find out more about this?",
            "Saving this for later.",
            "Love it, congratulations to the team.",
            "How long did this take?",
            "First time I see this, very cool.");
    private static final List<String> REPLIES =
            List.of("Same question here.", "Agreed, it really is.", "Following this thread.");
    private static final String ID_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    /**
     * One of an item's seeded comments (the fakes' documented formula, {@code SeededComments}): with {@code s} the
     * first 8 hex digits of SHA-256 of the item's id, two top-level comments by {@code CAST[s mod 4]} and
     * {@code CAST[(s+1) mod 4]} saying {@code TOP[s mod 6]} and {@code TOP[(s+1) mod 6]}, and a reply to the first by
     * {@code CAST[(s+2) mod 4]} saying {@code REPLIES[s mod 3]}.
     */
    record Seed(int index, Integer parent, String text, Commenter author) {
        static List<Seed> of(String item) {
            long s = Long.parseLong(HexFormat.of().formatHex(sha256(item), 0, 4), 16);
            return List.of(
                    new Seed(0, null, TOP.get((int) (s % 6)), CAST.get((int) (s % 4))),
                    new Seed(1, null, TOP.get((int) ((s + 1) % 6)), CAST.get((int) ((s + 1) % 4))),
                    new Seed(2, 0, REPLIES.get((int) (s % 3)), CAST.get((int) ((s + 2) % 4))));
        }
    }

    /** A comment as the API answers it, {@code created_at} read as an instant. */
    record Comment(
            String id,
            String accountId,
            String postId,
            String platform,
            String parentId,
            String text,
            String authorName,
            String authorUsername,
            boolean fromAccount,
            Instant createdAt) {
        static Comment of(Map<String, Object> wire) {
            assertThat(wire)
                    .containsOnlyKeys(
                            "id",
                            "account_id",
                            "post_id",
                            "platform",
                            "parent_id",
                            "text",
                            "author_name",
                            "author_username",
                            "from_account",
                            "created_at");
            return new Comment(
                    (String) wire.get("id"),
                    (String) wire.get("account_id"),
                    (String) wire.get("post_id"),
                    (String) wire.get("platform"),
                    (String) wire.get("parent_id"),
                    (String) wire.get("text"),
                    (String) wire.get("author_name"),
                    (String) wire.get("author_username"),
                    (Boolean) wire.get("from_account"),
                    Instant.parse((String) wire.get("created_at")));
        }
    }

    /** The connected account, its published post and the item the fake keeps for it. */
    record Published(
            String accountId, String name, String username, String postId, String item, Instant at, String token) {}

    /** What differs between the platforms: their comment ids, authors and the requests the live reader makes. */
    enum Platform {
        FACEBOOK {
            @Override
            String commentId(String item, Seed seed) {
                // <the post's id without the Page's part>_<16 digits>
                return item.substring(item.indexOf('_') + 1) + "_" + digits(item, seed.index(), 16);
            }

            @Override
            List<String> author(Commenter commenter) {
                return List.of(commenter.name(), commenter.facebookId());
            }

            @Override
            String readPath(String item) {
                return "/v24.0/" + item + "/comments";
            }

            @Override
            Map<String, List<String>> readQuery(String item) {
                return Map.of(
                        "fields",
                        List.of("id,message,from,created_time,parent{id}"),
                        "filter",
                        List.of("stream"),
                        "order",
                        List.of("reverse_chronological"),
                        "limit",
                        List.of("100"));
            }

            @Override
            String replyPath(String parent) {
                return "/v24.0/" + parent + "/comments";
            }

            @Override
            void assertReply(Map<String, Object> request, String item, String parent, String text) {
                assertThat(FakeRequests.headers(request).get("content-type"))
                        .singleElement()
                        .asString()
                        .startsWith("application/x-www-form-urlencoded");
                assertThat(FakeRequests.form((String) request.get("body"))).isEqualTo(Map.of("message", text));
                assertThat(request.get("status")).isEqualTo(200);
            }
        },
        INSTAGRAM {
            @Override
            String commentId(String item, Seed seed) {
                return "18" + digits(item, seed.index(), 15);
            }

            @Override
            List<String> author(Commenter commenter) {
                return List.of(commenter.instagramUsername(), commenter.instagramUsername());
            }

            @Override
            String readPath(String item) {
                return "/v24.0/" + item + "/comments";
            }

            @Override
            Map<String, List<String>> readQuery(String item) {
                return Map.of(
                        "fields",
                        List.of("id,text,username,timestamp,replies{id,text,username,timestamp}"),
                        "limit",
                        List.of("50"));
            }

            @Override
            String replyPath(String parent) {
                return "/v24.0/" + parent + "/replies";
            }

            @Override
            void assertReply(Map<String, Object> request, String item, String parent, String text) {
                assertThat(request.get("query")).isEqualTo(Map.of("message", List.of(text)));
                assertThat(request.get("status")).isEqualTo(200);
            }
        },
        YOUTUBE {
            @Override
            String commentId(String item, Seed seed) {
                String thread =
                        "Ugz" + letters(item, seed.parent() == null ? seed.index() : seed.parent(), 16) + "4AaABAg";
                return seed.parent() == null ? thread : thread + "." + letters(item, seed.index(), 22);
            }

            @Override
            List<String> author(Commenter commenter) {
                return List.of(commenter.name(), commenter.youtubeChannelId());
            }

            @Override
            String readPath(String item) {
                return "/youtube/v3/commentThreads";
            }

            @Override
            Map<String, List<String>> readQuery(String item) {
                return Map.of(
                        "part",
                        List.of("snippet,replies"),
                        "videoId",
                        List.of(item),
                        "maxResults",
                        List.of("100"),
                        "order",
                        List.of("time"),
                        "textFormat",
                        List.of("plainText"));
            }

            @Override
            String replyPath(String parent) {
                return "/youtube/v3/comments";
            }

            @Override
            void assertReply(Map<String, Object> request, String item, String parent, String text) throws Exception {
                assertThat(request.get("query")).isEqualTo(Map.of("part", List.of("snippet")));
                assertThat(MAPPER.readTree((String) request.get("body")))
                        .isEqualTo(MAPPER.createObjectNode()
                                .set(
                                        "snippet",
                                        MAPPER.createObjectNode()
                                                .put("parentId", parent)
                                                .put("textOriginal", text)));
                assertThat(request.get("status")).isEqualTo(200);
            }
        },
        LINKEDIN {
            @Override
            String commentId(String item, Seed seed) {
                return "urn:li:comment:(" + linkedinActivity(item) + "," + digits(item, seed.index(), 19) + ")";
            }

            @Override
            List<String> author(Commenter commenter) {
                // LinkedIn names no one (names need profile APIs Herald is not granted): the actor's URN, and "LinkedIn
                // member".
                return List.of("LinkedIn member", commenter.linkedinUrn());
            }

            @Override
            String readPath(String item) {
                return "/rest/socialActions/" + URLEncoder.encode(item, StandardCharsets.UTF_8) + "/comments";
            }

            @Override
            Map<String, List<String>> readQuery(String item) {
                return Map.of("count", List.of("100"));
            }

            @Override
            String replyPath(String parent) {
                return "/rest/socialActions/" + URLEncoder.encode(parent, StandardCharsets.UTF_8) + "/comments";
            }

            @Override
            void assertReply(Map<String, Object> request, String item, String parent, String text) throws Exception {
                assertThat(FakeRequests.headers(request).get("linkedin-version"))
                        .containsExactly("202601");
                assertThat(FakeRequests.headers(request).get("x-restli-protocol-version"))
                        .containsExactly("2.0.0");
                assertThat(MAPPER.readTree((String) request.get("body")))
                        .isEqualTo(MAPPER.readTree("{\"actor\":\"" + ORGANIZATION
                                + "\",\"object\":\"" + linkedinActivity(item) + "\",\"parentComment\":\"" + parent
                                + "\",\"message\":{\"text\":"
                                + MAPPER.writeValueAsString(text) + "}}"));
                assertThat(request.get("status")).isEqualTo(201);
            }
        };

        private static final ObjectMapper MAPPER = new ObjectMapper();

        /** The platform's id of the seeded comment. */
        abstract String commentId(String item, Seed seed);

        /** The seeded author's {@code author_name} and {@code author_username} as Herald maps the platform's. */
        abstract List<String> author(Commenter commenter);

        abstract String readPath(String item);

        abstract Map<String, List<String>> readQuery(String item);

        abstract String replyPath(String parent);

        abstract void assertReply(Map<String, Object> request, String item, String parent, String text)
                throws Exception;

        String wire() {
            return name().toLowerCase();
        }
    }

    private LiveWorkspace live;
    private final Map<Platform, Published> published = new LinkedHashMap<>();

    @BeforeAll
    void connectFourAccountsAndPublishAPostToEach() throws Exception {
        live = LiveWorkspace.create("Live comments");
        Instant started = Instant.now();
        for (Platform platform : Platform.values()) {
            HostedConnect.connect(live, platform.wire());
        }
        List<Map<String, Object>> accounts = as(live.key())
                .get("/accounts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("data");
        Map<Platform, Map<String, Object>> account = new LinkedHashMap<>();
        for (Platform platform : Platform.values()) {
            // LinkedIn adds the member and the organization they administer; the organization's comments are readable.
            account.put(
                    platform,
                    accounts.stream()
                            .filter(each -> platform.wire().equals(each.get("platform"))
                                    && (platform != Platform.LINKEDIN
                                            || "herald-fake-industries".equals(each.get("username"))))
                            .findFirst()
                            .orElseThrow());
        }

        String video = RunningSuite.get().providerFakesUrl() + "/_fakes/media/comments-tour.mp4?bytes=" + (64 * 1024);
        Map<Platform, String> bodies = Map.of(
                Platform.FACEBOOK, "{\"text\":\"Fresh rye, Tuesdays " + UUID.randomUUID() + "\"",
                Platform.INSTAGRAM,
                        "{\"text\":\"Studio morning " + UUID.randomUUID() + "\","
                                + "\"media\":{\"type\":\"image\",\"url\":\"https://media.example.com/studio-morning.jpg\"}",
                Platform.YOUTUBE,
                        "{\"text\":\"Comments tour\\nThe beds in May\",\"media\":{\"type\":\"video\",\"url\":\"" + video
                                + "\"},\"platform_options\":{\"youtube\":{\"privacy_status\":\"public\",\"made_for_kids\":false}}",
                Platform.LINKEDIN, "{\"text\":\"Our quarter in review " + UUID.randomUUID() + "\"");
        Map<Platform, String> posts = new LinkedHashMap<>();
        for (Platform platform : Platform.values()) {
            posts.put(
                    platform,
                    live.post(bodies.get(platform) + ",\"account_ids\":[\""
                            + account.get(platform).get("id") + "\"]}"));
        }

        for (Platform platform : Platform.values()) {
            String postId = posts.get(platform);
            JsonPath target = PostsPipelineIT.awaitPost(
                            live.key(),
                            postId,
                            post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                            Duration.ofSeconds(60).toMillis())
                    .setRootPath("data.targets[0]");
            assertThat(target.getString("status")).as("%s target", platform).isEqualTo("published");
            String item = target.getString("provider_post_id");
            // The account's token, as the journal shows it, from the request that published the item.
            String publishPath = switch (platform) {
                case FACEBOOK -> "/v24.0/" + PAGE_ID + "/feed";
                case INSTAGRAM -> "/v24.0/17841400000000001/media_publish";
                case YOUTUBE -> "/upload/youtube/v3/videos";
                case LINKEDIN -> "/rest/posts";
            };
            Map<String, Object> publish = FakeRequests.of(platform.wire()).stream()
                    .filter(request -> "POST".equals(request.get("method"))
                            && publishPath.equals(request.get("path"))
                            && !FakeRequests.receivedAt(request).isBefore(started))
                    .reduce((a, b) -> b)
                    .orElseThrow();
            Instant at = switch (platform) {
                case FACEBOOK ->
                    OffsetDateTime.parse(fakeItem(platform, item, "created_time"), GRAPH_TIME)
                            .toInstant();
                case INSTAGRAM ->
                    OffsetDateTime.parse(fakeItem(platform, item, "timestamp"), GRAPH_TIME)
                            .toInstant();
                case YOUTUBE -> Instant.parse(fakeItem(platform, item, "snippet.publishedAt"));
                case LINKEDIN -> Instant.ofEpochMilli(Long.parseLong(fakeItem(platform, item, "createdAt")));
            };
            Map<String, Object> connected = account.get(platform);
            published.put(
                    platform,
                    new Published(
                            (String) connected.get("id"),
                            (String) connected.get("name"),
                            (String) connected.get("username"),
                            postId,
                            item,
                            at,
                            FakeRequests.authorization(publish)));
        }
    }

    @Test
    void facebookPageComments() throws Exception {
        readReplyAndReadAgain(Platform.FACEBOOK);
    }

    @Test
    void instagramMediaComments() throws Exception {
        readReplyAndReadAgain(Platform.INSTAGRAM);
    }

    @Test
    void youtubeVideoComments() throws Exception {
        readReplyAndReadAgain(Platform.YOUTUBE);
    }

    @Test
    void linkedinOrganizationPostComments() throws Exception {
        readReplyAndReadAgain(Platform.LINKEDIN);
    }

    private void readReplyAndReadAgain(Platform platform) throws Exception {
        Published account = published.get(platform);
        String key = live.key();
        List<Seed> seeds = Seed.of(account.item());
        // What the first read stores: every seed the platform lists (LinkedIn's post listing has no replies).
        List<Comment> seeded = seeds.stream()
                .filter(seed -> platform != Platform.LINKEDIN || seed.parent() == null)
                .map(seed -> new Comment(
                        heraldId(account, platform.commentId(account.item(), seed)),
                        account.accountId(),
                        account.postId(),
                        platform.wire(),
                        seed.parent() == null
                                ? null
                                : heraldId(account, platform.commentId(account.item(), seeds.get(seed.parent()))),
                        seed.text(),
                        platform.author(seed.author()).get(0),
                        platform.author(seed.author()).get(1),
                        false,
                        account.at()))
                .toList();

        // The first read asks the platform once, with the account's token, and costs one comment request.
        JsonPath before = RunningSuite.usage(key);
        Instant readStarted = Instant.now();
        List<Comment> read = comments(key, "post_id", account.postId());
        assertThat(read).containsExactlyInAnyOrderElementsOf(seeded);
        assertNewestFirst(read);
        List<Map<String, Object>> reads = FakeRequests.made(
                platform.wire(), account.token(), "GET", platform.readPath(account.item()), readStarted);
        assertThat(reads).as("the platform's comments, read once").hasSize(1);
        assertThat(reads.get(0).get("query")).isEqualTo(platform.readQuery(account.item()));
        assertThat(reads.get(0).get("status")).isEqualTo(200);
        if (platform == Platform.LINKEDIN) {
            assertThat(FakeRequests.headers(reads.get(0)).get("linkedin-version"))
                    .containsExactly("202601");
        }
        JsonPath afterRead = assertCharged(key, before, 1, "a read that reached the platform");

        // A reply to a top-level comment goes to it, as the account.
        Comment top = seeded.get(1);
        assertThat(top.parentId()).isNull();
        Instant replyStarted = Instant.now();
        Comment reply = reply(key, top.id(), REPLY);
        Instant replied = Instant.now();
        assertReply(account, platform, reply, top.id(), REPLY, replyStarted, replied);
        String topOnPlatform = platform.commentId(account.item(), seeds.get(1));
        List<Map<String, Object>> replies = FakeRequests.made(
                platform.wire(), account.token(), "POST", platform.replyPath(topOnPlatform), replyStarted);
        assertThat(replies).as("the reply, posted once").hasSize(1);
        Map<String, Object> posted = replies.get(0);
        platform.assertReply(posted, account.item(), topOnPlatform, REPLY);
        JsonPath afterReply = assertCharged(key, afterRead, 1, "a reply");

        // A reply to a reply goes to its thread's top-level comment, on the platform and in parent_id. The seeded reply
        // where the platform lists it; on LinkedIn, which lists none, the reply just posted.
        Comment nested = platform == Platform.LINKEDIN ? reply : seeded.get(2);
        Seed thread = platform == Platform.LINKEDIN ? seeds.get(1) : seeds.get(0);
        assertThat(nested.parentId()).isEqualTo(heraldId(account, platform.commentId(account.item(), thread)));
        Instant nestedStarted = Instant.now();
        Comment inThread = reply(key, nested.id(), REPLY_IN_THREAD);
        Instant nestedReplied = Instant.now();
        assertReply(account, platform, inThread, nested.parentId(), REPLY_IN_THREAD, nestedStarted, nestedReplied);
        assertThat(inThread.id()).isNotEqualTo(reply.id());
        String threadOnPlatform = platform.commentId(account.item(), thread);
        List<Map<String, Object>> threadReplies = FakeRequests.made(
                platform.wire(), account.token(), "POST", platform.replyPath(threadOnPlatform), nestedStarted);
        assertThat(threadReplies).as("the reply in the thread, posted once").hasSize(1);
        Map<String, Object> postedInThread = threadReplies.get(0);
        platform.assertReply(postedInThread, account.item(), threadOnPlatform, REPLY_IN_THREAD);
        JsonPath afterReplies = assertCharged(key, afterReply, 1, "a reply to a reply");

        // The account's comments, read again within the 60 s the post's read stays fresh: what Herald stored, replies
        // included, without a platform call or a comment request (still one API request).
        assertThat(Duration.between(readStarted, Instant.now()))
                .as("still within the freshness window")
                .isLessThan(Duration.ofSeconds(50));
        List<Comment> again = comments(key, "account_id", account.accountId());
        List<Comment> expected = new ArrayList<>(seeded);
        expected.add(reply);
        expected.add(inThread);
        assertThat(again).containsExactlyInAnyOrderElementsOf(expected);
        assertNewestFirst(again);
        assertCharged(key, afterReplies, 0, "a read answered from what Herald stored");

        // The platform saw exactly the read and the two replies, all with the account's token.
        assertThat(FakeRequests.of(platform.wire()).stream()
                        .filter(request -> !FakeRequests.receivedAt(request).isBefore(readStarted)
                                && account.token().equals(FakeRequests.authorization(request)))
                        .map(request -> request.get("method") + " " + request.get("path"))
                        .toList())
                .containsExactly(
                        "GET " + platform.readPath(account.item()),
                        "POST " + platform.replyPath(topOnPlatform),
                        "POST " + platform.replyPath(threadOnPlatform));
    }

    /** {@code GET /comments?<filter>=<id>}: the first page's comments. */
    private static List<Comment> comments(String key, String filter, String id) {
        List<Map<String, Object>> data = as(key).queryParam(filter, id)
                .get("/comments")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("data");
        return data.stream().map(Comment::of).toList();
    }

    /** {@code POST /comments}: 201 and the reply. */
    private static Comment reply(String key, String commentId, String text) throws Exception {
        String body =
                "{\"comment_id\":\"" + commentId + "\",\"text\":" + new ObjectMapper().writeValueAsString(text) + "}";
        Map<String, Object> data = as(key).contentType(ContentType.JSON)
                .body(body)
                .post("/comments")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getMap("data");
        return Comment.of(data);
    }

    /** The reply Herald answers: on the post, in the thread, by the account itself, with a stable id. */
    private static void assertReply(
            Published account,
            Platform platform,
            Comment reply,
            String parentId,
            String text,
            Instant started,
            Instant answered) {
        assertThat(reply.id()).matches("cmt_[0-9a-f]{24}");
        // Named as a later read of the platform names the account, so the stored reply keeps its author:
        // LinkedIn by URN, Facebook by the Page's id, YouTube by the channel id, Instagram by its username alone.
        String name = platform == Platform.INSTAGRAM ? account.username() : account.name();
        String username = switch (platform) {
            case LINKEDIN -> ORGANIZATION;
            case FACEBOOK -> PAGE_ID;
            case YOUTUBE -> CHANNEL_ID;
            case INSTAGRAM -> account.username();
        };
        assertThat(reply)
                .usingRecursiveComparison()
                .ignoringFields("id", "createdAt")
                .isEqualTo(new Comment(
                        null,
                        account.accountId(),
                        account.postId(),
                        platform.wire(),
                        parentId,
                        text,
                        name,
                        username,
                        true,
                        null));
        // Herald's clock or the platform's (YouTube's and Graph's times have whole seconds).
        assertThat(reply.createdAt()).isBetween(started.minusSeconds(1), answered.plusSeconds(1));
    }

    /**
     * Comment requests went up by {@code comments} and API requests by two (the request and this usage read) since
     * {@code before}; the usage read after.
     */
    private static JsonPath assertCharged(String key, JsonPath before, int comments, String what) {
        JsonPath after = RunningSuite.usage(key);
        assertThat(after.getInt("comment_requests.used"))
                .as("comment requests after %s", what)
                .isEqualTo(before.getInt("comment_requests.used") + comments);
        assertThat(after.getInt("comment_requests.reserved"))
                .as("comment requests reserved after %s", what)
                .isZero();
        assertThat(after.getInt("api_requests.used"))
                .as("API requests after %s (and the usage read)", what)
                .isEqualTo(before.getInt("api_requests.used") + 2);
        return after;
    }

    private static void assertNewestFirst(List<Comment> comments) {
        assertThat(comments)
                .isSortedAccordingTo(Comparator.comparing(Comment::createdAt)
                        .thenComparing(Comment::id)
                        .reversed());
    }

    /** The item's field as the fake keeps it ({@code /_fakes/<platform>/posts}). */
    private static String fakeItem(Platform platform, String item, String field) {
        return String.valueOf(fakes().get("/_fakes/" + platform.wire() + "/posts")
                .then()
                .statusCode(200)
                .extract()
                .<Object>path("data.find { it.id == '" + item + "' }." + field));
    }

    /** Herald's id of a platform comment: {@code cmt_} and 24 hex digits of SHA-256 of {@code <account>:<platform id>}. */
    private static String heraldId(Published account, String platformId) {
        return "cmt_"
                + HexFormat.of()
                        .formatHex(sha256(account.accountId() + ":" + platformId))
                        .substring(0, 24);
    }

    /** The activity of a LinkedIn post, which its comments' URNs name: 19 digits derived from the post's URN. */
    private static String linkedinActivity(String postUrn) {
        return "urn:li:activity:" + digits(postUrn, -1, 19);
    }

    /** The fakes' seeded ids: {@code length} digits of SHA-256 of {@code <item>#<index>}, read as a positive number. */
    private static String digits(String item, int index, int length) {
        return new BigInteger(1, sha256(item + "#" + index)).toString().substring(0, length);
    }

    /** The fakes' seeded ids: {@code length} URL-safe letters, one per byte of SHA-256 of {@code <item>#<index>}. */
    private static String letters(String item, int index, int length) {
        byte[] hash = sha256(item + "#" + index);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(ID_LETTERS.charAt((hash[i] & 0xff) % ID_LETTERS.length()));
        }
        return text.toString();
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
