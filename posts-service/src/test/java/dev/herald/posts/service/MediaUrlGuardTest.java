package dev.herald.posts.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostMedia;
import io.vertx.mutiny.core.Vertx;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** OWASP API7 (SSRF): a post's media URL may not point Herald's fetcher at a non-public address. */
class MediaUrlGuardTest {
    private static final Vertx VERTX = Vertx.vertx();
    private static final MediaUrlGuard NO_DNS = new MediaUrlGuard(VERTX, host -> {
        throw new AssertionError("no lookup expected for " + host);
    });

    @AfterAll
    static void close() {
        VERTX.closeAndAwait();
    }

    private static InetAddress ip(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static PostDraft draft(String mediaUrl) {
        return new PostDraft(
                "Hello",
                List.of("acc_000000000000000000000000"),
                PostMedia.single(new Post.Media(mediaUrl, "video")),
                null,
                JsonNodeFactory.instance.objectNode(),
                null,
                List.of());
    }

    private static List<FieldError> problems(MediaUrlGuard guard, String mediaUrl) {
        return guard.vet(draft(mediaUrl)).await().atMost(Duration.ofSeconds(5)).errors();
    }

    // Which addresses are non-public is PublicAddressesTest's (common); here, that a literal host, IPv4 or bracketed
    // IPv6, is checked without DNS and refused as a media.url field error.
    @ParameterizedTest
    @ValueSource(strings = {"https://169.254.169.254/latest/meta-data/", "https://[fd00::1]/v.mp4"})
    void api7_aLiteralNonPublicAddressIsRefusedWithoutALookup(String url) {
        assertThat(problems(NO_DNS, url)).singleElement().satisfies(error -> {
            assertThat(error.field()).isEqualTo("media.url");
            assertThat(error.code()).isEqualTo("invalid_value");
            assertThat(error.message()).startsWith("media.url must resolve to public addresses only (");
        });
    }

    @ParameterizedTest
    // (https://127.1/ has no host at all for java.net.URI: the reader refuses it as not an absolute https URL.)
    @ValueSource(
            strings = {
                "https://2130706433/v.mp4",
                "https://0x7f000001/v.mp4",
                "https://0177.0.0.1/v.mp4",
                "https://012.0.0.1/v.mp4",
                "https://127.0.0.01/v.mp4"
            })
    void api7_anAddressInAnotherNotationIsRefusedBecauseFetchersReadItDifferently(String url) {
        assertThat(problems(NO_DNS, url)).singleElement().satisfies(error -> {
            assertThat(error.field()).isEqualTo("media.url");
            assertThat(error.code()).isEqualTo("invalid_format");
            assertThat(error.message())
                    .startsWith("media.url must name its host or give an IPv4 address as four decimal numbers");
        });
    }

    @Test
    void api7_aNameThatResolvesToAPrivateAddressIsRefusedEvenWhenAnotherOfItsAddressesIsPublic() {
        MediaUrlGuard guard = new MediaUrlGuard(VERTX, host -> new InetAddress[] {ip("93.184.216.34"), ip("10.0.0.7")});
        assertThat(problems(guard, "https://cdn.rebind.example/v.mp4"))
                .singleElement()
                .satisfies(
                        error -> assertThat(error.message())
                                .isEqualTo(
                                        "media.url must resolve to public addresses only (cdn.rebind.example resolves to 10.0.0.7)."));
    }

    @Test
    void aPublicAddressOrAnUnresolvedNameIsAccepted() {
        assertThat(problems(
                        new MediaUrlGuard(VERTX, host -> new InetAddress[] {ip("93.184.216.34")}),
                        "https://cdn.example.com/v.mp4"))
                .isEmpty();
        assertThat(problems(NO_DNS, "https://93.184.216.34/v.mp4")).isEmpty();
        assertThat(problems(
                        new MediaUrlGuard(VERTX, host -> new InetAddress[] {ip("93.184.216.34")}),
                        "https://0day.cdn.example/v.mp4"))
                .isEmpty();
        // Checked again by the fetcher at transfer time, when it has addresses to connect to.
        assertThat(problems(
                        new MediaUrlGuard(VERTX, host -> {
                            throw new UnknownHostException(host);
                        }),
                        "https://cdn.example.com/v.mp4"))
                .isEmpty();
    }

    @Test
    void localRunsAcceptLoopbackAndPrivateMediaButStillRefuseOtherNotations() {
        MediaUrlGuard local = new MediaUrlGuard(VERTX, host -> new InetAddress[] {ip("127.0.0.1")}, true);
        assertThat(local.allowsPrivateUrls()).isTrue();
        assertThat(problems(local, "http://127.0.0.1:8190/_fakes/media/clip.mp4"))
                .isEmpty();
        assertThat(problems(local, "https://localhost/v.mp4")).isEmpty();
        assertThat(problems(local, "https://10.0.0.5/v.mp4")).isEmpty();
        assertThat(problems(local, "https://2130706433/v.mp4"))
                .singleElement()
                .satisfies(error -> assertThat(error.code()).isEqualTo("invalid_format"));
        assertThat(NO_DNS.allowsPrivateUrls()).isFalse();
    }

    @Test
    void aDraftWithoutMediaIsUntouched() {
        PostDraft none =
                new PostDraft("Hello", List.of(), null, null, JsonNodeFactory.instance.objectNode(), null, List.of());
        assertThat(NO_DNS.vet(none).await().atMost(Duration.ofSeconds(5))).isSameAs(none);
    }

    @Test
    void eachItemOfAListIsCheckedUnderItsOwnField() {
        PostDraft carousel = new PostDraft(
                "Hello",
                List.of(),
                PostMedia.listed(List.of(
                        new Post.Media("https://93.184.216.34/a.jpg", "image"),
                        new Post.Media("https://127.0.0.1/b.jpg", "image"),
                        new Post.Media("https://10.1.2.3/c.jpg", "image"))),
                null,
                JsonNodeFactory.instance.objectNode(),
                null,
                List.of());
        assertThat(NO_DNS.vet(carousel).await().atMost(Duration.ofSeconds(5)).errors())
                .extracting(FieldError::field)
                .containsExactly("media[1].url", "media[2].url");
    }
}
