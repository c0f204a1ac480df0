package dev.herald.mcp.tool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.mcp.client.GatewayRequest;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolRequestsTest {
    private static final PostDraft TEXT_ONLY =
            new PostDraft("Hello", List.of("acc_1", "acc_2"), null, null, null, null);

    @Test
    void aTextPostIsTheApisBodyWithOnlyTheFieldsGiven() {
        GatewayRequest request = ToolRequests.validatePost(TEXT_ONLY);

        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/posts/validate");
        assertThat(request.idempotencyKey()).isNull();
        assertThat(request.body())
                .isEqualTo(new JsonObject("{\"text\":\"Hello\",\"account_ids\":[\"acc_1\",\"acc_2\"]}"));
    }

    @Test
    void everyPostArgumentMapsToItsFieldAndTheFirstCommentTextToItsObject() {
        PostDraft draft = new PostDraft(
                "Launch",
                List.of("acc_1"),
                List.of(new MediaItem("https://cdn.example/a.mp4", "video")),
                "2026-12-01T09:00:00Z",
                Map.of("youtube", Map.of("privacy_status", "public", "made_for_kids", false)),
                "Link in bio");

        JsonObject body = ToolRequests.createPost(draft, null).body();

        assertThat(body)
                .isEqualTo(new JsonObject("{\"text\":\"Launch\",\"account_ids\":[\"acc_1\"],"
                        + "\"media\":[{\"url\":\"https://cdn.example/a.mp4\",\"type\":\"video\"}],"
                        + "\"scheduled_at\":\"2026-12-01T09:00:00Z\","
                        + "\"platform_options\":{\"youtube\":{\"privacy_status\":\"public\",\"made_for_kids\":false}},"
                        + "\"first_comment\":{\"text\":\"Link in bio\"}}"));
    }

    @Test
    void emptyOptionalArgumentsAreLeftOutAsIfNotGiven() {
        PostDraft draft = new PostDraft("Hi", List.of("acc_1"), List.of(), "", Map.of(), "");

        assertThat(ToolRequests.createPost(draft, "").body())
                .isEqualTo(new JsonObject("{\"text\":\"Hi\",\"account_ids\":[\"acc_1\"]}"));
        assertThat(ToolRequests.listAccounts("", null, "healthy", null, "").query())
                .containsExactly(Map.entry("health", "healthy"));
    }

    @Test
    void createPostGeneratesAnIdempotencyKeyPerCallUnlessTheAgentGivesOne() {
        GatewayRequest first = ToolRequests.createPost(TEXT_ONLY, null);
        GatewayRequest second = ToolRequests.createPost(TEXT_ONLY, null);

        assertThat(first.path()).isEqualTo("/posts");
        assertThat(first.idempotencyKey()).startsWith(ToolRequests.GENERATED_KEY_PREFIX);
        assertThat(second.idempotencyKey()).isNotEqualTo(first.idempotencyKey());
        assertThat(ToolRequests.createPost(TEXT_ONLY, "retry-7").idempotencyKey())
                .isEqualTo("retry-7");
    }

    @Test
    void listFiltersBecomeQueryParametersInOrder() {
        assertThat(ToolRequests.listAccounts("prf_1", "tiktok", null, 20, "c1").query())
                .containsExactly(
                        Map.entry("profile_id", "prf_1"),
                        Map.entry("platform", "tiktok"),
                        Map.entry("limit", "20"),
                        Map.entry("cursor", "c1"));
        assertThat(ToolRequests.listProfiles("acme", null, null).query()).containsExactly(Map.entry("q", "acme"));
        assertThat(ToolRequests.listComments("pst_1", null, null, null).path()).isEqualTo("/comments");
        assertThat(ToolRequests.listComments("pst_1", null, null, null).query())
                .containsExactly(Map.entry("post_id", "pst_1"));
        assertThat(ToolRequests.getUsage().path()).isEqualTo("/usage");
    }

    @Test
    void anIdStaysOnePathSegmentWhateverItHolds() {
        assertThat(ToolRequests.getPost("pst_1").path()).isEqualTo("/posts/pst_1");
        assertThat(ToolRequests.getPost("pst_1/../../usage").path()).isEqualTo("/posts/pst_1%2F..%2F..%2Fusage");
        assertThat(ToolRequests.getPost("a b?c").path()).isEqualTo("/posts/a%20b%3Fc");
    }

    @Test
    void aReplyIsTheCommentIdAndText() {
        GatewayRequest reply = ToolRequests.replyToComment("cmt_1", "Thanks!");

        assertThat(reply.method()).isEqualTo("POST");
        assertThat(reply.path()).isEqualTo("/comments");
        assertThat(reply.body()).isEqualTo(new JsonObject("{\"comment_id\":\"cmt_1\",\"text\":\"Thanks!\"}"));
    }
}
