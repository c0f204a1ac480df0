package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static dev.herald.system.RunningSuite.fakes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.system.HostedConnect.LiveWorkspace;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Live analytics end to end against the provider fakes: Facebook, Instagram, Pinterest and
 * YouTube accounts connected through the hosted page, a post published through the fake, then {@code GET
 * /posts/{id}/analytics} and {@code GET /accounts/{id}/analytics} through the gateway answer the fake's numbers (its
 * documented formula, {@code PublishedMetrics}, computed here again), read with exactly the request the live reader
 * documents; the second read is a cache hit that costs no API request. posts-service's and accounts-service's
 * refreshers run every minute beside the test, so a read may find numbers a refresher just read: the journal's one
 * request of this account then came before the read, and the read is free; otherwise the read made it and counts one.
 * Either way the numbers are those of the moment that one request reached the fake. HTTP only.
 */
@ResourceLock(RunningSuite.FACEBOOK_FAKE)
@ResourceLock(RunningSuite.INSTAGRAM_FAKE)
@ResourceLock(RunningSuite.PINTEREST_FAKE)
@ResourceLock(RunningSuite.YOUTUBE_FAKE)
class LiveAnalyticsIT {
    private static final String PAGE_ID = "108765432109876";
    private static final DateTimeFormatter GRAPH_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxx");
    private static final String FACEBOOK_FIELDS = "shares,reactions.summary(total_count).limit(0),"
            + "comments.summary(total_count).limit(0),insights.metric(post_impressions,post_impressions_unique)";

    /**
     * An item's numbers: views, reach, likes, comments, shares, saves (the fakes' formula, {@code PublishedMetrics}).
     */
    record Numbers(long views, long reach, long likes, long comments, long shares, long saves) {
        static Numbers of(String id, Instant published, Instant at) throws Exception {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            long k = 1 + Long.parseLong(HexFormat.of().formatHex(hash, 0, 4), 16) % 10;
            long n = 1 + Math.max(0, Duration.between(published, at).toMinutes());
            return new Numbers(180 * k * n, 135 * k * n, 15 * k * n, 3 * k * n, 2 * k * n, 4 * k * n);
        }
    }

    /** One published item of a fake: its id and when it was published. */
    record Item(String id, Instant published) {}

    /** A target's metrics as the API answers them: every field present, null where the platform reports none. */
    private static Map<String, Object> metrics(
            Long views, Long likes, Long comments, Long shares, Long saves, Long reach) {
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("views", views == null ? null : views.intValue());
        metrics.put("likes", likes == null ? null : likes.intValue());
        metrics.put("comments", comments == null ? null : comments.intValue());
        metrics.put("shares", shares == null ? null : shares.intValue());
        metrics.put("saves", saves == null ? null : saves.intValue());
        metrics.put("reach", reach == null ? null : reach.intValue());
        return metrics;
    }

    /** API requests used so far; the usage read itself counts one. */
    private static int used(String key) throws InterruptedException {
        // A cache hit's unit is given back just after its answer, so wait for the refund.
        Thread.sleep(1000);
        return RunningSuite.usage(key).getInt("api_requests.used");
    }

    /**
     * The numbers the fake answered: those of the moment it handled the request, which is at most a second before
     * the journal recorded it (they differ only when a minute ended in between).
     */
    private static List<Numbers> answeredAt(Map<String, Object> request, Function<Instant, Numbers> numbers) {
        Instant at = FakeRequests.receivedAt(request);
        return List.of(numbers.apply(at.minusSeconds(1)), numbers.apply(at));
    }

    private static Numbers unchecked(String id, Instant published, Instant at) {
        try {
            return Numbers.of(id, published, at);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Item> items(String platform, String timeField, Function<String, Instant> parse) {
        List<Item> items = new ArrayList<>();
        for (Map<String, Object> item : fakes().get("/_fakes/" + platform + "/posts")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .<Map<String, Object>>getList("data")) {
            Object time = item;
            for (String field : timeField.split("\\.")) {
                time = ((Map<?, ?>) time).get(field);
            }
            items.add(new Item((String) item.get("id"), parse.apply(String.valueOf(time))));
        }
        return items;
    }

    /** The sum of every item's views at that moment (an account's views, {@code V} of the formula). */
    private static long views(List<Item> items, Instant at) {
        return items.stream()
                .filter(item -> !item.published().isAfter(at))
                .mapToLong(item -> unchecked(item.id(), item.published(), at).views())
                .sum();
    }

    /**
     * Reads the analytics twice and checks the money: the first read counts one only when it made the request (it
     * came after the read began), the second is free and asks the platform nothing more.
     */
    private static JsonPath readTwice(
            String key, String route, String platform, String authorization, String method, String path, Instant since)
            throws InterruptedException {
        int before = used(key);
        Instant readStarted = Instant.now();
        JsonPath first = as(key).get(route).then().statusCode(200).extract().jsonPath();
        int afterFirst = used(key);
        List<Map<String, Object>> requests = FakeRequests.made(platform, authorization, method, path, since);
        assertThat(requests).as("%s asked %s %s", route, method, path).hasSize(1);
        boolean freshRead = !FakeRequests.receivedAt(requests.get(0)).isBefore(readStarted);
        assertThat(afterFirst)
                .as("a fresh read counts one (and the usage read one)")
                .isEqualTo(before + (freshRead ? 2 : 1));

        JsonPath second = as(key).get(route).then().statusCode(200).extract().jsonPath();
        assertThat(second.getMap("data")).isEqualTo(first.getMap("data"));
        assertThat(used(key)).as("the cached read is free").isEqualTo(afterFirst + 1);
        assertThat(FakeRequests.made(platform, authorization, method, path, since))
                .hasSize(1);
        return first;
    }

    @Test
    void aFacebookPagePostsAndThePagesNumbersComeFromGraphAndTheSecondReadIsACacheHit() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live analytics Facebook");
        List<Map<String, Object>> accounts = HostedConnect.connect(live, "facebook");
        Instant connected = Instant.now();
        String accountId = (String) accounts.get(0).get("id");

        String postId = live.post(
                "{\"text\":\"Rye on Tuesdays " + UUID.randomUUID() + "\",\"account_ids\":[\"" + accountId + "\"]}");
        JsonPath target = PostsPipelineIT.awaitFinal(live.key(), postId).setRootPath("data.targets[0]");
        assertThat(target.getString("status")).isEqualTo("published");
        String pagePost = target.getString("provider_post_id");
        Map<String, Object> publish = FakeRequests.of("facebook").stream()
                .filter(request -> ("/v24.0/" + PAGE_ID + "/feed").equals(request.get("path")))
                .reduce((a, b) -> b)
                .orElseThrow();
        String pageToken = FakeRequests.headers(publish).get("authorization").get(0);
        Instant published = OffsetDateTime.parse(
                        fakes().get("/_fakes/facebook/posts")
                                .then()
                                .extract()
                                .path("data.find { it.id == '" + pagePost + "' }.created_time"),
                        GRAPH_TIME)
                .toInstant();

        JsonPath post = readTwice(
                        live.key(),
                        "/posts/" + postId + "/analytics",
                        "facebook",
                        pageToken,
                        "GET",
                        "/v24.0/" + pagePost,
                        connected)
                .setRootPath("data");
        Map<String, Object> request = FakeRequests.made("facebook", pageToken, "GET", "/v24.0/" + pagePost, connected)
                .get(0);
        assertThat(request.get("query")).isEqualTo(Map.of("fields", List.of(FACEBOOK_FIELDS)));
        assertThat(post.getString("object")).isEqualTo("post_analytics");
        assertThat(post.getString("targets[0].status")).isEqualTo("available");
        assertThat(post.getString("targets[0].reason")).isNull();
        assertThat(post.getString("targets[0].provider_post_id")).isEqualTo(pagePost);
        Map<String, Object> answered = post.getMap("targets[0].metrics");
        assertThat(answeredAt(request, at -> unchecked(pagePost, published, at)))
                .anySatisfy(numbers -> {
                    assertThat(answered)
                            .isEqualTo(metrics(
                                    numbers.views(),
                                    numbers.likes(),
                                    numbers.comments(),
                                    numbers.shares(),
                                    null,
                                    numbers.reach()));
                    assertThat(post.getLong("targets[0].raw.insights.data[0].values[0].value"))
                            .isEqualTo(numbers.views());
                });

        List<Item> pageItems = items(
                "facebook",
                "created_time",
                text -> OffsetDateTime.parse(text, GRAPH_TIME).toInstant());
        JsonPath account = readTwice(
                        live.key(),
                        "/accounts/" + accountId + "/analytics",
                        "facebook",
                        pageToken,
                        "GET",
                        "/v24.0/" + PAGE_ID,
                        connected)
                .setRootPath("data");
        Map<String, Object> pageRequest = FakeRequests.made(
                        "facebook", pageToken, "GET", "/v24.0/" + PAGE_ID, connected)
                .get(0);
        assertThat(pageRequest.get("query")).isEqualTo(Map.of("fields", List.of("followers_count,fan_count")));
        assertThat(account.getString("object")).isEqualTo("account_analytics");
        assertThat(account.getString("status")).isEqualTo("available");
        Instant at = FakeRequests.receivedAt(pageRequest);
        assertThat(List.of(views(pageItems, at.minusSeconds(1)), views(pageItems, at)))
                .anySatisfy(views -> {
                    assertThat(account.getLong("metrics.followers")).isEqualTo(1000 + views / 10);
                    assertThat(account.getLong("metrics.likes")).isEqualTo(900 + views / 12);
                });
        assertThat(account.getString("metrics.posts")).isNull();
        assertThat(account.getString("metrics.views")).isNull();
    }

    @Test
    void aPinsImpressionsAndSavesAndTheAccountsCountsComeFromPinterest() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live analytics Pinterest");
        String accountId =
                (String) HostedConnect.connect(live, "pinterest").get(0).get("id");
        Instant connected = Instant.now();

        String postId = live.post("{\"text\":\"Noodles " + UUID.randomUUID() + "\",\"account_ids\":[\"" + accountId
                + "\"],\"media\":{\"type\":\"image\",\"url\":\"https://media.example.com/noodles.jpg\"},"
                + "\"platform_options\":{\"pinterest\":{\"board_id\":\"1125899906842625101\",\"title\":\"Noodles\"}}}");
        JsonPath target = PostsPipelineIT.awaitFinal(live.key(), postId).setRootPath("data.targets[0]");
        assertThat(target.getString("status")).isEqualTo("published");
        String pin = target.getString("provider_post_id");
        Map<String, Object> publish = FakeRequests.of("pinterest").stream()
                .filter(request -> "/v5/pins".equals(request.get("path")) && "POST".equals(request.get("method")))
                .reduce((a, b) -> b)
                .orElseThrow();
        String token = FakeRequests.headers(publish).get("authorization").get(0);
        Instant published = LocalDateTime.parse(fakes().get("/_fakes/pinterest/posts")
                        .then()
                        .extract()
                        .<String>path("data.find { it.id == '" + pin + "' }.created_at"))
                .toInstant(ZoneOffset.UTC);

        String path = "/v5/pins/" + pin + "/analytics";
        JsonPath post = readTwice(
                        live.key(), "/posts/" + postId + "/analytics", "pinterest", token, "GET", path, connected)
                .setRootPath("data");
        Map<String, Object> request =
                FakeRequests.made("pinterest", token, "GET", path, connected).get(0);
        LocalDate today = LocalDate.ofInstant(FakeRequests.receivedAt(request), ZoneOffset.UTC);
        assertThat(request.get("query"))
                .isEqualTo(Map.of(
                        "start_date",
                        List.of(today.minusDays(89).toString()),
                        "end_date",
                        List.of(today.toString()),
                        "metric_types",
                        List.of("IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK")));
        assertThat(post.getString("targets[0].status")).isEqualTo("available");
        Map<String, Object> answered = post.getMap("targets[0].metrics");
        assertThat(answeredAt(request, at -> unchecked(pin, published, at))).anySatisfy(numbers -> {
            assertThat(answered).isEqualTo(metrics(numbers.views(), null, null, null, numbers.saves(), null));
            assertThat(post.getLong("targets[0].raw.PIN_CLICK")).isEqualTo(numbers.likes());
        });

        List<Item> pins = items(
                "pinterest", "created_at", text -> LocalDateTime.parse(text).toInstant(ZoneOffset.UTC));
        JsonPath account = readTwice(
                        live.key(),
                        "/accounts/" + accountId + "/analytics",
                        "pinterest",
                        token,
                        "GET",
                        "/v5/user_account",
                        connected)
                .setRootPath("data");
        assertThat(account.getString("status")).isEqualTo("available");
        Instant at = FakeRequests.receivedAt(FakeRequests.made("pinterest", token, "GET", "/v5/user_account", connected)
                .get(0));
        assertThat(List.of(views(pins, at.minusSeconds(1)), views(pins, at))).anySatisfy(views -> {
            assertThat(account.getLong("metrics.views")).isEqualTo(views);
            assertThat(account.getLong("metrics.followers")).isEqualTo(1000 + views / 10);
        });
        long pinned =
                pins.stream().filter(item -> !item.published().isAfter(at)).count();
        assertThat(account.getLong("metrics.posts")).isEqualTo(pinned);
        assertThat(account.getLong("metrics.following")).isEqualTo(100 + pinned);
    }

    @Test
    void anInstagramMediasInsightsAndTheProfilesCountsComeFromInstagram() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live analytics Instagram");
        String accountId =
                (String) HostedConnect.connect(live, "instagram").get(0).get("id");
        Instant connected = Instant.now();

        String postId = live.post("{\"text\":\"Cake day " + UUID.randomUUID() + "\",\"account_ids\":[\"" + accountId
                + "\"],\"media\":{\"type\":\"image\",\"url\":\"https://media.example.com/cake.jpg\"}}");
        JsonPath target = PostsPipelineIT.awaitFinal(live.key(), postId).setRootPath("data.targets[0]");
        assertThat(target.getString("status")).isEqualTo("published");
        String media = target.getString("provider_post_id");
        Map<String, Object> publish = FakeRequests.of("instagram").stream()
                .filter(request -> String.valueOf(request.get("path")).endsWith("/media_publish"))
                .reduce((a, b) -> b)
                .orElseThrow();
        String token = FakeRequests.headers(publish).get("authorization").get(0);
        Instant published = OffsetDateTime.parse(
                        fakes().get("/_fakes/instagram/posts")
                                .then()
                                .extract()
                                .path("data.find { it.id == '" + media + "' }.timestamp"),
                        GRAPH_TIME)
                .toInstant();

        String path = "/v24.0/" + media + "/insights";
        JsonPath post = readTwice(
                        live.key(), "/posts/" + postId + "/analytics", "instagram", token, "GET", path, connected)
                .setRootPath("data");
        Map<String, Object> request =
                FakeRequests.made("instagram", token, "GET", path, connected).get(0);
        assertThat(request.get("query"))
                .isEqualTo(Map.of("metric", List.of("views,reach,likes,comments,shares,saved")));
        assertThat(post.getString("targets[0].status")).isEqualTo("available");
        Map<String, Object> answered = post.getMap("targets[0].metrics");
        assertThat(answeredAt(request, at -> unchecked(media, published, at)))
                .anySatisfy(numbers -> assertThat(answered)
                        .isEqualTo(metrics(
                                numbers.views(),
                                numbers.likes(),
                                numbers.comments(),
                                numbers.shares(),
                                numbers.saves(),
                                numbers.reach())));

        List<Item> medias = items(
                "instagram",
                "timestamp",
                text -> OffsetDateTime.parse(text, GRAPH_TIME).toInstant());
        JsonPath account = readTwice(
                        live.key(),
                        "/accounts/" + accountId + "/analytics",
                        "instagram",
                        token,
                        "GET",
                        "/v24.0/me",
                        connected)
                .setRootPath("data");
        Map<String, Object> meRequest = FakeRequests.made("instagram", token, "GET", "/v24.0/me", connected)
                .get(0);
        assertThat(meRequest.get("query"))
                .isEqualTo(Map.of("fields", List.of("followers_count,follows_count,media_count")));
        assertThat(account.getString("status")).isEqualTo("available");
        Instant at = FakeRequests.receivedAt(meRequest);
        long posted =
                medias.stream().filter(item -> !item.published().isAfter(at)).count();
        assertThat(List.of(views(medias, at.minusSeconds(1)), views(medias, at)))
                .anySatisfy(views ->
                        assertThat(account.getLong("metrics.followers")).isEqualTo(1000 + views / 10));
        assertThat(account.getLong("metrics.following")).isEqualTo(100 + posted);
        assertThat(account.getLong("metrics.posts")).isEqualTo(posted);
    }

    @Test
    void youtubeNumbersAreRedactedAndYouTubeUnaskedUntilTheOwnerConsentsThenTheyComeFromTheDataApi() throws Exception {
        LiveWorkspace live = LiveWorkspace.create("Live analytics YouTube");
        String accountId =
                (String) HostedConnect.connect(live, "youtube").get(0).get("id");
        Instant connected = Instant.now();
        String media = RunningSuite.get().providerFakesUrl() + "/_fakes/media/analytics-tour.mp4?bytes=" + (256 * 1024);
        String postId = live.post("{\"text\":\"Analytics tour\\nThe beds in November\",\"account_ids\":[\""
                + accountId + "\"],\"media\":{\"type\":\"video\",\"url\":\"" + media + "\"},"
                + "\"platform_options\":{\"youtube\":{\"privacy_status\":\"public\",\"made_for_kids\":false}}}");
        JsonPath target = PostsPipelineIT.awaitPost(
                        live.key(),
                        postId,
                        polled -> PostsPipelineIT.FINAL.contains(polled.getString("data.status")),
                        Duration.ofSeconds(60).toMillis())
                .setRootPath("data.targets[0]");
        assertThat(target.getString("status")).isEqualTo("published");
        String video = target.getString("provider_post_id");
        Map<String, Object> upload = FakeRequests.of("youtube").stream()
                .filter(request ->
                        "POST".equals(request.get("method")) && "/upload/youtube/v3/videos".equals(request.get("path")))
                .reduce((a, b) -> b)
                .orElseThrow();
        String token = FakeRequests.headers(upload).get("authorization").get(0);

        as(live.key())
                .get("/posts/" + postId + "/analytics")
                .then()
                .statusCode(200)
                .body("data.targets[0].status", org.hamcrest.Matchers.equalTo("redacted"))
                .body("data.targets[0].reason", org.hamcrest.Matchers.equalTo("analytics_consent_required"))
                .body("data.targets[0].metrics", org.hamcrest.Matchers.nullValue());
        as(live.key())
                .get("/accounts/" + accountId + "/analytics")
                .then()
                .statusCode(200)
                .body("data.status", org.hamcrest.Matchers.equalTo("redacted"));
        assertThat(FakeRequests.made("youtube", token, "GET", "/youtube/v3/videos", connected))
                .isEmpty();
        assertThat(FakeRequests.made("youtube", token, "GET", "/youtube/v3/channels", connected))
                .noneSatisfy(request ->
                        assertThat(String.valueOf(request.get("query"))).contains("statistics"));

        as(live.key())
                .contentType(ContentType.JSON)
                .body("{\"accepted\":true,\"policy_version\":\"2026-09-01\"}")
                .post("/accounts/" + accountId + "/analytics-consent")
                .then()
                .statusCode(200);

        Instant published = Instant.parse(fakes().get("/_fakes/youtube/posts")
                .then()
                .extract()
                .path("data.find { it.id == '" + video + "' }.snippet.publishedAt"));
        JsonPath post = readTwice(
                        live.key(),
                        "/posts/" + postId + "/analytics",
                        "youtube",
                        token,
                        "GET",
                        "/youtube/v3/videos",
                        connected)
                .setRootPath("data");
        Map<String, Object> request = FakeRequests.made("youtube", token, "GET", "/youtube/v3/videos", connected)
                .get(0);
        assertThat(request.get("query")).isEqualTo(Map.of("part", List.of("statistics"), "id", List.of(video)));
        assertThat(post.getString("targets[0].status")).isEqualTo("available");
        Map<String, Object> answered = post.getMap("targets[0].metrics");
        assertThat(answeredAt(request, at -> unchecked(video, published, at))).anySatisfy(numbers -> {
            assertThat(answered)
                    .isEqualTo(metrics(numbers.views(), numbers.likes(), numbers.comments(), null, null, null));
        });

        List<Item> videos = items("youtube", "snippet.publishedAt", Instant::parse);
        JsonPath account = readTwice(
                        live.key(),
                        "/accounts/" + accountId + "/analytics",
                        "youtube",
                        token,
                        "GET",
                        "/youtube/v3/channels",
                        connected)
                .setRootPath("data");
        Map<String, Object> channelRequest = FakeRequests.made(
                        "youtube", token, "GET", "/youtube/v3/channels", connected)
                .get(0);
        assertThat(channelRequest.get("query"))
                .isEqualTo(Map.of("part", List.of("statistics"), "id", List.of("UCq3HeraldFakeChannel0001")));
        assertThat(account.getString("status")).isEqualTo("available");
        Instant at = FakeRequests.receivedAt(channelRequest);
        assertThat(List.of(views(videos, at.minusSeconds(1)), views(videos, at)))
                .anySatisfy(views -> {
                    assertThat(account.getLong("metrics.views")).isEqualTo(views);
                    assertThat(account.getLong("metrics.followers")).isEqualTo(1000 + views / 10);
                });
        assertThat(account.getLong("metrics.posts"))
                .isEqualTo(videos.stream()
                        .filter(item -> !item.published().isAfter(at))
                        .count());
        assertThat(account.getString("metrics.following")).isNull();
    }
}
