package dev.herald.common.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.rest.JsonMapperCustomizer;
import java.util.List;
import org.junit.jupiter.api.Test;

class PostMediaTest {
    private final ObjectMapper mapper = JsonMapperCustomizer.configure(new ObjectMapper());
    private final Post.Media image = new Post.Media("https://cdn.example.com/a.jpg", Post.Media.IMAGE);
    private final Post.Media clip = new Post.Media("https://cdn.example.com/b.mp4", Post.Media.VIDEO);

    @Test
    void oneObjectGivenIsEchoedAsOneObject() throws Exception {
        String json = mapper.writeValueAsString(PostMedia.single(image));
        assertThat(json).isEqualTo("{\"url\":\"https://cdn.example.com/a.jpg\",\"type\":\"image\"}");
        assertThat(mapper.readValue(json, PostMedia.class)).isEqualTo(PostMedia.single(image));
    }

    @Test
    void anArrayIsEchoedAsAnArrayInOrderEvenOfOne() throws Exception {
        PostMedia carousel = PostMedia.listed(List.of(clip, image));
        String json = mapper.writeValueAsString(carousel);
        assertThat(json).startsWith("[{\"url\":\"https://cdn.example.com/b.mp4\"");
        assertThat(mapper.readValue(json, PostMedia.class)).isEqualTo(carousel);
        assertThat(mapper.readValue(mapper.writeValueAsString(PostMedia.listed(List.of(image))), PostMedia.class)
                        .listed())
                .isTrue();
    }

    @Test
    void aPostWithoutMediaReadsBackWithout() throws Exception {
        record Holder(PostMedia media) {}
        assertThat(mapper.readValue("{\"media\":null}", Holder.class).media()).isNull();
    }

    @Test
    void targetErrorsGetTheirCodesDefaultsAndKeepAPlatformTablesOwn() throws Exception {
        TargetError reauth = new TargetError(TargetError.ACCOUNT_REAUTH_REQUIRED, "m", false, null);
        assertThat(reauth.category()).isEqualTo(TargetError.CATEGORY_AUTH);
        assertThat(reauth.action()).isEqualTo(TargetError.ACTION_RECONNECT);
        TargetError provider = new TargetError(TargetError.PROVIDER_ERROR, "m", true, null);
        assertThat(provider.action()).isEqualTo(TargetError.ACTION_RETRY_LATER);
        TargetError refused = provider.as(TargetError.CATEGORY_CONTENT, TargetError.ACTION_EDIT_CONTENT);
        assertThat(mapper.readValue(mapper.writeValueAsString(refused), TargetError.class))
                .isEqualTo(refused);
        // An event written before category and action existed.
        TargetError old = mapper.readValue(
                "{\"code\":\"media_unavailable\",\"message\":\"m\",\"retryable\":false}", TargetError.class);
        assertThat(old.category()).isEqualTo(TargetError.CATEGORY_MEDIA);
        assertThat(old.action()).isEqualTo(TargetError.ACTION_REPLACE_MEDIA);
        assertThat(old.details()).isEmpty();
    }
}
