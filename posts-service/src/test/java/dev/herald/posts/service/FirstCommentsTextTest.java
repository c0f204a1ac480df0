package dev.herald.posts.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import org.junit.jupiter.api.Test;

class FirstCommentsTextTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Post.FirstComment POSTS = new Post.FirstComment("See the menu");

    private static ObjectNode options(String json) throws Exception {
        return (ObjectNode) MAPPER.readTree(json);
    }

    @Test
    void aPlatformsOverrideWinsOverThePostsFirstComment() throws Exception {
        ObjectNode options = options("{\"instagram\":{\"first_comment\":{\"text\":\"#menu #food\"}}}");

        assertThat(FirstComments.textFor(Platform.INSTAGRAM, POSTS, options)).isEqualTo("#menu #food");
        assertThat(FirstComments.textFor(Platform.FACEBOOK, POSTS, options)).isEqualTo("See the menu");
        assertThat(FirstComments.textFor(Platform.LINKEDIN, null, options)).isNull();
    }

    @Test
    void platformsWithoutACommentApiTakeNone() throws Exception {
        ObjectNode options = options("{\"tiktok\":{\"first_comment\":{\"text\":\"hi\"}}}");

        assertThat(FirstComments.textFor(Platform.TIKTOK, POSTS, options)).isNull();
        assertThat(FirstComments.textFor(Platform.PINTEREST, POSTS, options)).isNull();
    }

    @Test
    void aPendingFirstCommentOfATargetThatNeverPublishedFailsAndALiveOneWaits() {
        PostTarget.FirstCommentStatus pending = FirstComments.pending();

        assertThat(FirstComments.afterTargetOutcome(pending, "failed", false, () -> null)
                        .error()
                        .code())
                .isEqualTo(FirstComments.TARGET_NOT_PUBLISHED);
        assertThat(FirstComments.afterTargetOutcome(pending, "canceled", true, () -> null)
                        .status())
                .isEqualTo("failed");
        assertThat(FirstComments.afterTargetOutcome(pending, "published", false, () -> null))
                .isSameAs(pending);
        assertThat(FirstComments.afterTargetOutcome(pending, "uncertain", true, () -> null))
                .isSameAs(pending);
        assertThat(FirstComments.afterTargetOutcome(
                        pending, "published", true, () -> FirstComments.published("sbx_cmt_1")))
                .isEqualTo(FirstComments.published("sbx_cmt_1"));
        assertThat(FirstComments.afterTargetOutcome(null, "failed", false, () -> null))
                .isNull();
    }
}
