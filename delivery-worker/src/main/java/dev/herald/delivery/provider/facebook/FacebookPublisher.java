package dev.herald.delivery.provider.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.FacebookConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformCalls;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import dev.herald.delivery.provider.meta.GraphErrors;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Live Facebook Page posts through the Graph API's Pages endpoints, with the Page's token (the account's external id
 * is the Page id). What is made follows {@code platform_options.facebook.format} ({@code feed} when absent):
 * <ul>
 *   <li>feed: text on the feed (with the {@code link} option's preview), a photo from the post's image URL, a video
 *       from its video URL, or for 2 or more images a multi-photo post: each photo uploaded unpublished
 *       ({@code published=false}), then {@code POST /{page}/feed} with the {@code message} and
 *       {@code attached_media[i]={"media_fbid":"<photo id>"}} in the post's order
 *       (https://developers.facebook.com/docs/pages-api/posts#publish-a-multi-photo-post);</li>
 *   <li>reel and story: {@link FacebookReelsAndStories}.</li>
 * </ul>
 * Facebook fetches the media itself; Herald moves no bytes. The Graph API takes no idempotency key, so
 * {@link PublicationLedger} drives the calls; unpublished photos and started uploads are harmless, and after an
 * unknown outcome of the publishing call the next attempt looks through the Page's latest posts (or videos) for the
 * same text before publishing again. Errors as {@link GraphErrors} reads them; a refused token cannot be refreshed
 * (Meta issues no refresh tokens), so accounts-service then disconnects the account.
 */
@ApplicationScoped
public class FacebookPublisher implements Publisher {
    private static final String SITE = "https://www.facebook.com/";

    private final FacebookGraphApi api;
    private final FacebookReelsAndStories reelsAndStories;
    private final PublicationLedger ledger;
    private final FacebookConfig config;
    private final ObjectMapper mapper;

    public FacebookPublisher(
            @RestClient FacebookGraphApi api,
            FacebookReelsAndStories reelsAndStories,
            PublicationLedger ledger,
            FacebookConfig config,
            ObjectMapper mapper) {
        this.api = api;
        this.reelsAndStories = reelsAndStories;
        this.ledger = ledger;
        this.config = config;
        this.mapper = mapper;
    }

    @Override
    public boolean publishes(Mode mode, Platform platform) {
        return mode == Mode.LIVE && platform == Platform.FACEBOOK;
    }

    @Override
    public Uni<PublishOutcome> publish(PublishRequest request) {
        Post.Media media = request.medium();
        String text = request.text() == null ? "" : request.text();
        String format = request.platformOptions().path("format").asText("feed");
        if (media != null && "reel".equals(format)) {
            return ledger.publish(request, reelsAndStories.reel(request, media, text));
        }
        if (media != null && "story".equals(format)) {
            return ledger.publish(request, reelsAndStories.story(request, media));
        }
        if (request.media().size() > 1) {
            return ledger.publish(
                    request,
                    new PlatformCalls(
                            access -> multiPhoto(access, request.media(), text),
                            access -> findPost(access, text, false)));
        }
        boolean video = media != null && Post.Media.VIDEO.equals(media.type());
        // The post's Facebook option: a link preview, for text posts (a photo or video post has no link).
        String link = request.platformOptions().hasNonNull("link")
                ? request.platformOptions().get("link").asText()
                : null;
        return ledger.publish(
                request,
                new PlatformCalls(
                        access -> createPost(access, media, video, text, link),
                        access -> findPost(access, text, video)));
    }

    /** Only looks: {@link PublicationLedger} never calls create for a reconciling request. */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return publish(request);
    }

    private Uni<PlatformAnswer> createPost(
            ProviderAccess access, Post.Media media, boolean video, String text, String link) {
        String page = access.externalId();
        Uni<Response> call = media == null
                ? api.feed(PlatformResponses.bearer(access), page, text, link)
                : video
                        ? api.video(PlatformResponses.bearer(access), page, media.url(), text)
                        : api.photo(PlatformResponses.bearer(access), page, media.url(), text);
        return call.map(response -> created(response, page, video));
    }

    /**
     * The photos uploaded unpublished in order, then the post attaching them. Photos are harmless until attached, so a
     * failure before the post made nothing.
     */
    private Uni<PlatformAnswer> multiPhoto(ProviderAccess access, List<Post.Media> photos, String text) {
        if (photos.stream().anyMatch(photo -> !Post.Media.IMAGE.equals(photo.type()))) {
            // posts-service keeps videos out of multi-photo posts; this guards against a hand-made event.
            return Uni.createFrom()
                    .item(new PlatformAnswer.Refused(new TargetError(
                            TargetError.PROVIDER_ERROR,
                            "A Facebook post with several media items takes images only; nothing was sent to Facebook.",
                            false,
                            Map.of())));
        }
        return uploadPhotos(access, photos, new ArrayList<>()).flatMap(uploaded -> {
            if (!(uploaded instanceof PlatformAnswer.Processing photoIds)) {
                return Uni.createFrom().item(uploaded);
            }
            MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
            if (!text.isBlank()) {
                form.add("message", text);
            }
            String[] ids = photoIds.ref().split(",");
            for (int i = 0; i < ids.length; i++) {
                form.add("attached_media[" + i + "]", "{\"media_fbid\":\"" + ids[i] + "\"}");
            }
            String page = access.externalId();
            return api.feedPost(PlatformResponses.bearer(access), page, form)
                    .map(response -> created(response, page, false));
        });
    }

    /** Processing with the uploaded photos' ids, comma-separated and in order; or the refusal of one. */
    private Uni<PlatformAnswer> uploadPhotos(ProviderAccess access, List<Post.Media> photos, List<String> uploaded) {
        if (uploaded.size() == photos.size()) {
            return Uni.createFrom().item(new PlatformAnswer.Processing(String.join(",", uploaded)));
        }
        return api.unpublishedPhoto(
                        PlatformResponses.bearer(access),
                        access.externalId(),
                        photos.get(uploaded.size()).url(),
                        false)
                .flatMap(response -> {
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200 || !body.hasNonNull("id")) {
                        return Uni.createFrom()
                                .item(refusedOutright(GraphErrors.answer(
                                        response.getStatus(),
                                        body,
                                        "Facebook refused photo " + (uploaded.size() + 1) + " of the post")));
                    }
                    uploaded.add(body.get("id").asText());
                    return uploadPhotos(access, photos, uploaded);
                });
    }

    /** A failed call that published nothing (an unpublished photo, an upload's start): never an unknown outcome. */
    static PlatformAnswer refusedOutright(PlatformAnswer failure) {
        return failure instanceof PlatformAnswer.Unknown unknown
                ? new PlatformAnswer.Refused(unknown.error())
                : failure;
    }

    /** A look Facebook does not allow (a permission error) is a final answer, never a second post. */
    static PlatformAnswer lookRefused(PlatformAnswer failure) {
        return failure instanceof PlatformAnswer.Refused refused
                        && !refused.error().retryable()
                ? PlatformResponses.unconfirmed(
                        "Facebook", "the Page", refused.error().details())
                : failure;
    }

    private PlatformAnswer created(Response response, String page, boolean video) {
        int status = response.getStatus();
        JsonNode body = PlatformResponses.body(mapper, response);
        if (status == 200 && body.hasNonNull("id")) {
            if (video) {
                String id = body.get("id").asText();
                return new PlatformAnswer.Published(id, SITE + page + "/videos/" + id + "/");
            }
            // A photo answers its own id and the feed post's; the post is what the Page shows.
            String postId = body.hasNonNull("post_id")
                    ? body.get("post_id").asText()
                    : body.get("id").asText();
            return new PlatformAnswer.Published(postId, postUrl(page, postId));
        }
        return GraphErrors.answer(status, body, "Facebook refused the post");
    }

    private Uni<PlatformAnswer> findPost(ProviderAccess access, String text, boolean video) {
        if (text.isBlank()) {
            // Nothing to recognise the post by: looking could only guess.
            return Uni.createFrom().item(PlatformResponses.unconfirmed("Facebook", "the Page", Map.of()));
        }
        String page = access.externalId();
        Uni<Response> listing = video
                ? api.videos(
                        PlatformResponses.bearer(access), page, "id,description,created_time", config.reconcileWindow())
                : api.posts(
                        PlatformResponses.bearer(access), page, "id,message,created_time", config.reconcileWindow());
        return listing.map(response -> {
            int status = response.getStatus();
            JsonNode body = PlatformResponses.body(mapper, response);
            if (status != 200) {
                return lookRefused(GraphErrors.answer(status, body, "Facebook could not list the Page's posts"));
            }
            for (JsonNode item : body.path("data")) {
                if (text.equals(item.path(video ? "description" : "message").asText(null)) && item.hasNonNull("id")) {
                    String id = item.get("id").asText();
                    return new PlatformAnswer.Published(
                            id, video ? SITE + page + "/videos/" + id + "/" : postUrl(page, id));
                }
            }
            return new PlatformAnswer.NotFound();
        });
    }

    /** {@code <page id>_<post id>} is shown at {@code facebook.com/<page id>/posts/<post id>}. */
    private static String postUrl(String page, String postId) {
        int separator = postId.indexOf('_');
        return separator > 0
                ? SITE + postId.substring(0, separator) + "/posts/" + postId.substring(separator + 1) + "/"
                : SITE + page + "/posts/" + postId + "/";
    }
}
