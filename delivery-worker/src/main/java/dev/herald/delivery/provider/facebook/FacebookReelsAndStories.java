package dev.herald.delivery.provider.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.delivery.config.FacebookConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformCalls;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.meta.GraphErrors;
import dev.herald.delivery.repository.ProviderPublicationStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.time.Clock;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Facebook Page Reels (https://developers.facebook.com/docs/video-api/guides/reels-publishing) and stories
 * (https://developers.facebook.com/docs/page-stories-api), as {@link FacebookPublisher} makes them:
 * <ul>
 *   <li>a Reel: {@code POST /{page}/video_reels upload_phase=start} ({@code video_id}), the video handed to the upload
 *       host by its {@code file_url} (Facebook fetches it), then {@code upload_phase=finish} with
 *       {@code video_state=PUBLISHED} and the {@code description}; the Reel is the video id;</li>
 *   <li>a video story: the same session on {@code /{page}/video_stories}, whose finish answers the story's
 *       {@code post_id};</li>
 *   <li>a photo story: the photo uploaded unpublished ({@code published=false}), then
 *       {@code POST /{page}/photo_stories photo_id}.</li>
 * </ul>
 * Only the last call publishes. The uploaded video's or photo's id is kept in the ledger before it
 * ({@link ProviderPublicationStatements#callRef}), so after an unknown outcome the next attempt looks for exactly that
 * media among the Page's Reels or stories; without one, the last call was never made.
 */
@ApplicationScoped
public class FacebookReelsAndStories {
    private static final String REELS = "video_reels";
    private static final String VIDEO_STORIES = "video_stories";
    private static final String STORIES = "stories";

    private final FacebookGraphApi api;
    private final FacebookVideoUploadApi upload;
    private final ProviderPublicationStatements publications;
    private final FacebookConfig config;
    private final Clock clock;
    private final ObjectMapper mapper;

    public FacebookReelsAndStories(
            @RestClient FacebookGraphApi api,
            @RestClient FacebookVideoUploadApi upload,
            ProviderPublicationStatements publications,
            FacebookConfig config,
            Clock clock,
            ObjectMapper mapper) {
        this.api = api;
        this.upload = upload;
        this.publications = publications;
        this.config = config;
        this.clock = clock;
        this.mapper = mapper;
    }

    PlatformCalls reel(PublishRequest request, Post.Media video, String description) {
        return new PlatformCalls(
                access -> uploaded(request, access, REELS, video).flatMap(started -> {
                    if (!(started instanceof PlatformAnswer.Processing session)) {
                        return Uni.createFrom().item(started);
                    }
                    MultivaluedMap<String, String> finish = form("upload_phase", "finish");
                    finish.add("video_id", session.ref());
                    finish.add("video_state", "PUBLISHED");
                    finish.add("description", description);
                    return api.videoSession(PlatformResponses.bearer(access), access.externalId(), REELS, finish)
                            .map(response -> {
                                JsonNode body = PlatformResponses.body(mapper, response);
                                return response.getStatus() == 200
                                                && body.path("success").asBoolean(false)
                                        ? new PlatformAnswer.Published(session.ref(), reelUrl(session.ref()))
                                        : GraphErrors.answer(
                                                response.getStatus(), body, "Facebook refused to publish the Reel");
                            });
                }),
                access -> find(request, access, REELS));
    }

    PlatformCalls story(PublishRequest request, Post.Media media) {
        boolean video = Post.Media.VIDEO.equals(media.type());
        return new PlatformCalls(
                access -> video ? videoStory(request, access, media) : photoStory(request, access, media),
                access -> find(request, access, STORIES));
    }

    private Uni<PlatformAnswer> videoStory(PublishRequest request, ProviderAccess access, Post.Media video) {
        return uploaded(request, access, VIDEO_STORIES, video).flatMap(started -> {
            if (!(started instanceof PlatformAnswer.Processing session)) {
                return Uni.createFrom().item(started);
            }
            MultivaluedMap<String, String> finish = form("upload_phase", "finish");
            finish.add("video_id", session.ref());
            return api.videoSession(PlatformResponses.bearer(access), access.externalId(), VIDEO_STORIES, finish)
                    .map(response -> storyAnswer(response.getStatus(), PlatformResponses.body(mapper, response)));
        });
    }

    private Uni<PlatformAnswer> photoStory(PublishRequest request, ProviderAccess access, Post.Media photo) {
        String bearer = PlatformResponses.bearer(access);
        return api.unpublishedPhoto(bearer, access.externalId(), photo.url(), false)
                .flatMap(response -> {
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200 || !body.hasNonNull("id")) {
                        return Uni.createFrom()
                                .item(FacebookPublisher.refusedOutright(GraphErrors.answer(
                                        response.getStatus(), body, "Facebook refused the story's photo")));
                    }
                    String photoId = body.get("id").asText();
                    return publications
                            .callRef(request.idempotencyToken(), photoId, Timestamps.now(clock))
                            .flatMap(kept -> api.photoStory(bearer, access.externalId(), photoId))
                            .map(story -> storyAnswer(story.getStatus(), PlatformResponses.body(mapper, story)));
                });
    }

    private static PlatformAnswer storyAnswer(int status, JsonNode body) {
        return status == 200 && body.path("success").asBoolean(false) && body.hasNonNull("post_id")
                ? new PlatformAnswer.Published(body.get("post_id").asText(), null)
                : GraphErrors.answer(status, body, "Facebook refused to publish the story");
    }

    /**
     * A video session started on {@code edge} and the video handed over by its URL: Processing with the video id, kept
     * in the ledger first; or the refusal (nothing is published before the finish call).
     */
    private Uni<PlatformAnswer> uploaded(PublishRequest request, ProviderAccess access, String edge, Post.Media video) {
        return api.videoSession(
                        PlatformResponses.bearer(access), access.externalId(), edge, form("upload_phase", "start"))
                .flatMap(response -> {
                    JsonNode body = PlatformResponses.body(mapper, response);
                    if (response.getStatus() != 200 || !body.hasNonNull("video_id")) {
                        return Uni.createFrom()
                                .item(FacebookPublisher.refusedOutright(GraphErrors.answer(
                                        response.getStatus(), body, "Facebook refused to start the video's upload")));
                    }
                    String videoId = body.get("video_id").asText();
                    return publications
                            .callRef(request.idempotencyToken(), videoId, Timestamps.now(clock))
                            .flatMap(kept -> upload.uploadHosted("OAuth " + access.accessToken(), videoId, video.url()))
                            .map(uploaded -> {
                                JsonNode answer = PlatformResponses.body(mapper, uploaded);
                                return uploaded.getStatus() == 200
                                                && answer.path("success").asBoolean(false)
                                        ? new PlatformAnswer.Processing(videoId)
                                        : FacebookPublisher.refusedOutright(GraphErrors.answer(
                                                uploaded.getStatus(),
                                                answer,
                                                "Facebook could not fetch the video from its URL"));
                            });
                });
    }

    /**
     * The Reel or story made from the media id the ledger kept: found among the Page's latest Reels (by id) or stories
     * (by {@code media_id}); none kept, the publishing call was never made.
     */
    private Uni<PlatformAnswer> find(PublishRequest request, ProviderAccess access, String edge) {
        return publications.find(request.idempotencyToken()).flatMap(before -> {
            String mediaId = before == null ? null : before.providerRef();
            if (mediaId == null) {
                return Uni.createFrom().item(new PlatformAnswer.NotFound());
            }
            boolean reels = REELS.equals(edge);
            return api.listing(
                            PlatformResponses.bearer(access),
                            access.externalId(),
                            edge,
                            reels ? "id,description" : "post_id,media_id,status",
                            config.reconcileWindow())
                    .map(response -> {
                        JsonNode body = PlatformResponses.body(mapper, response);
                        if (response.getStatus() != 200) {
                            return FacebookPublisher.lookRefused(GraphErrors.answer(
                                    response.getStatus(), body, "Facebook could not list the Page's " + edge));
                        }
                        for (JsonNode item : body.path("data")) {
                            if (reels && mediaId.equals(item.path("id").asText(null))) {
                                return new PlatformAnswer.Published(mediaId, reelUrl(mediaId));
                            }
                            if (!reels && mediaId.equals(item.path("media_id").asText(null))) {
                                return new PlatformAnswer.Published(
                                        item.path("post_id").asText(), null);
                            }
                        }
                        return new PlatformAnswer.NotFound();
                    });
        });
    }

    private static String reelUrl(String videoId) {
        return "https://www.facebook.com/reel/" + videoId + "/";
    }

    private static MultivaluedMap<String, String> form(String name, String value) {
        MultivaluedMap<String, String> form = new MultivaluedHashMap<>();
        form.add(name, value);
        return form;
    }
}
