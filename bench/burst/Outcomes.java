import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * What the public API says became of the burst benchmark's posts: every post whose text holds a marker, read with
 * {@code GET /api/v1/posts?q=<marker>} page by page in each workspace, as a customer would see them. A post's lag is
 * its one target's {@code completed_at} (the moment delivery-worker had the platform's answer) minus the post's
 * {@code scheduled_at}; the post's {@code updated_at} (its finalization, when the API first shows it final) is kept
 * beside it. JSON is read with the Jackson of the build measured (burst.sh puts its jars on the class path).
 */
final class Outcomes {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One post of the run: {@code order} is the number in its text (the burst's acceptance order, the steady mode's slot). */
    record Outcome(long order, String postId, Instant scheduledAt, String targetStatus, Instant completedAt, Instant updatedAt) {
        boolean published() {
            return targetStatus.equals("published") && completedAt != null;
        }

        boolean failed() {
            return targetStatus.equals("failed") || targetStatus.equals("canceled");
        }

        /** completed_at - scheduled_at in milliseconds, or +infinity for a post not published. */
        double lagMillis() {
            return published() ? Duration.between(scheduledAt, completedAt).toNanos() / 1e6 : Double.POSITIVE_INFINITY;
        }

        /** updated_at - scheduled_at: when the API first showed the post final. */
        double visibleLagMillis() {
            return published() && updatedAt != null ? Duration.between(scheduledAt, updatedAt).toNanos() / 1e6 : Double.POSITIVE_INFINITY;
        }
    }

    private Outcomes() {}

    /** Every post of {@code workspaces} whose text contains {@code marker}, the workspaces read {@code pool}'s threads at a time. */
    static List<Outcome> read(HttpClient http, String gateway, List<PostsRunState.Workspace> workspaces, String marker, ExecutorService pool)
            throws Exception {
        List<Future<List<Outcome>>> pages = new ArrayList<>();
        for (PostsRunState.Workspace w : workspaces) {
            pages.add(pool.submit(() -> readWorkspace(http, gateway, w, marker)));
        }
        List<Outcome> all = new ArrayList<>();
        for (Future<List<Outcome>> f : pages) {
            all.addAll(f.get());
        }
        return all;
    }

    static List<Outcome> readWorkspace(HttpClient http, String gateway, PostsRunState.Workspace w, String marker) throws Exception {
        List<Outcome> found = new ArrayList<>();
        String cursor = null;
        do {
            String url = gateway + "/api/v1/posts?limit=100&q=" + encode(marker) + (cursor == null ? "" : "&cursor=" + encode(cursor));
            Answer a = BenchSupport.send(http, Duration.ofSeconds(60), "GET", url, w.key(), null, Map.of());
            if (a.status != 200) {
                throw new IllegalStateException("GET /api/v1/posts answered " + a.status + ": " + BenchSupport.abbreviate(a.body, 300));
            }
            JsonNode page = JSON.readTree(a.body);
            for (JsonNode post : page.path("data")) {
                found.add(outcome(post));
            }
            JsonNode next = page.path("meta").path("next_cursor");
            cursor = page.path("meta").path("has_more").asBoolean(false) && next.isTextual() ? next.asText() : null;
        } while (cursor != null);
        return found;
    }

    static Outcome outcome(JsonNode post) {
        JsonNode target = post.path("targets").path(0);
        String text = post.path("text").asText();
        return new Outcome(
                Long.parseLong(text.substring(text.lastIndexOf(' ') + 1)),
                post.path("id").asText(),
                instant(post.path("scheduled_at")),
                target.path("status").asText("missing"),
                instant(target.path("completed_at")),
                instant(post.path("updated_at")));
    }

    static Instant instant(JsonNode node) {
        return node.isTextual() ? Instant.parse(node.asText()) : null;
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
