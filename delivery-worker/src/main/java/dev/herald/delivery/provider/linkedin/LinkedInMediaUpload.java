package dev.herald.delivery.provider.linkedin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.LinkedInConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.media.MediaIngest;
import dev.herald.delivery.provider.media.MediaSource;
import dev.herald.delivery.provider.media.SourceChunks;
import dev.herald.delivery.provider.media.StreamingHttp;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * A post's media handed to LinkedIn before the post is made ({@link LinkedInPublisher}): an image through the Images
 * API and a document (a PDF) through the Documents API, each in one {@code PUT}, a video through the Videos API in the
 * parts LinkedIn's {@code uploadInstructions} ask for, then finalized. The bytes stream from the media URL ({@link MediaIngest}); nothing here publishes anything.
 */
@ApplicationScoped
public class LinkedInMediaUpload {

    private final LinkedInApi api;
    private final MediaIngest ingest;
    private final LinkedInConfig config;
    private final ObjectMapper mapper;

    public LinkedInMediaUpload(
            @RestClient LinkedInApi api, MediaIngest ingest, LinkedInConfig config, ObjectMapper mapper) {
        this.api = api;
        this.ingest = ingest;
        this.config = config;
        this.mapper = mapper;
    }

    /** An uploaded image's or document's URN, or the refusal that ended its upload (nothing was posted either way). */
    record Uploaded(String urn, PlatformAnswer refusal) {}

    Uni<Uploaded> uploadImage(ProviderAccess access, MediaSource.Located source) {
        return uploadWhole(access, source, "images", "image");
    }

    /** A document (PPT, PPTX, DOC, DOCX or PDF; Herald sends PDFs) through the Documents API, as an image is sent. */
    Uni<Uploaded> uploadDocument(ProviderAccess access, MediaSource.Located source) {
        return uploadWhole(access, source, "documents", "document");
    }

    /**
     * {@code POST /rest/{media}?action=initializeUpload} with the author as owner, then the whole file in one
     * {@code PUT} to the answered {@code uploadUrl}; the answer's {@code value.<kind>} is the URN.
     */
    private Uni<Uploaded> uploadWhole(ProviderAccess access, MediaSource.Located source, String media, String kind) {
        ObjectNode request = mapper.createObjectNode();
        request.putObject("initializeUploadRequest").put("owner", access.externalId());
        return mediaAction(access, media, "initializeUpload", request).flatMap(response -> {
            JsonNode body = PlatformResponses.body(mapper, response);
            JsonNode value = body.path("value");
            if (response.getStatus() / 100 != 2 || !value.hasNonNull("uploadUrl") || !value.hasNonNull(kind)) {
                return Uni.createFrom()
                        .item(new Uploaded(
                                null,
                                LinkedInErrors.refusal(
                                        response.getStatus(),
                                        response,
                                        body,
                                        "LinkedIn refused to start the " + kind + " upload")));
            }
            String urn = value.get(kind).asText();
            Map<String, String> headers =
                    Map.of("Authorization", PlatformResponses.bearer(access), "Content-Type", source.contentType());
            return ingest.sources()
                    .open(source, 0)
                    .flatMap(file -> ingest.http().stream(
                            HttpMethod.PUT,
                            StreamingHttp.Endpoint.of(value.get("uploadUrl").asText()),
                            headers,
                            source.size(),
                            file))
                    .map(answer -> answer.status() / 100 == 2
                            ? new Uploaded(urn, null)
                            : new Uploaded(
                                    null,
                                    PlatformResponses.uploadRefused(
                                            answer, "LinkedIn refused the " + kind + "'s bytes")))
                    .onFailure()
                    .recoverWithItem(
                            failure -> new Uploaded(null, PlatformResponses.brokenUpload("LinkedIn", failure)));
        });
    }

    /** Uploaded images' URNs in the sources' order, or the refusal that ended an upload (nothing was posted either way). */
    record UploadedImages(List<String> urns, PlatformAnswer refusal) {}

    /**
     * Every image of a multi-image post, one after the other as {@link #uploadImage} uploads one; the first refusal
     * stops the rest (what was uploaded before stays unused at LinkedIn, which posts nothing without a post call).
     */
    Uni<UploadedImages> uploadImages(ProviderAccess access, List<MediaSource.Located> sources) {
        Uni<UploadedImages> uploads = Uni.createFrom().item(new UploadedImages(List.of(), null));
        for (MediaSource.Located source : sources) {
            uploads = uploads.flatMap(sofar -> sofar.refusal() != null
                    ? Uni.createFrom().item(sofar)
                    : uploadImage(access, source).map(image -> {
                        if (image.refusal() != null) {
                            return new UploadedImages(sofar.urns(), image.refusal());
                        }
                        List<String> urns = new ArrayList<>(sofar.urns());
                        urns.add(image.urn());
                        return new UploadedImages(List.copyOf(urns), null);
                    }));
        }
        return uploads;
    }

    /** One part of a video upload as LinkedIn's {@code uploadInstructions} give it. */
    record VideoPart(String uploadUrl, long firstByte, long lastByte) {
        long length() {
            return lastByte - firstByte + 1;
        }
    }

    /** Initializes, uploads every part and finalizes; {@link PlatformAnswer.Processing} with the video URN once LinkedIn has it all. */
    Uni<PlatformAnswer> uploadVideo(ProviderAccess access, MediaSource.Located source) {
        ObjectNode request = mapper.createObjectNode();
        request.putObject("initializeUploadRequest")
                .put("owner", access.externalId())
                .put("fileSizeBytes", source.size())
                .put("uploadCaptions", false)
                .put("uploadThumbnail", false);
        return mediaAction(access, "videos", "initializeUpload", request).flatMap(response -> {
            JsonNode body = PlatformResponses.body(mapper, response);
            JsonNode value = body.path("value");
            if (response.getStatus() / 100 != 2 || !value.hasNonNull("video")) {
                return Uni.createFrom()
                        .item(LinkedInErrors.refusal(
                                response.getStatus(), response, body, "LinkedIn refused to start the video upload"));
            }
            String urn = value.get("video").asText();
            List<VideoPart> parts = parts(value.path("uploadInstructions"), source.size());
            if (parts == null) {
                return Uni.createFrom()
                        .item(new PlatformAnswer.Refused(new TargetError(
                                TargetError.PROVIDER_ERROR,
                                "LinkedIn's upload instructions for the video do not cover its " + source.size()
                                        + " bytes;" + " nothing was posted.",
                                true,
                                Map.of("video", urn))));
            }
            List<String> etags = new ArrayList<>();
            return ingest.sources()
                    .open(source, 0)
                    .flatMap(file ->
                            sendParts(parts, 0, new SourceChunks(file), () -> StreamingHttp.discard(file), etags))
                    .flatMap(refused -> refused != null
                            ? Uni.createFrom().item(refused)
                            : finalizeVideo(
                                    access, urn, value.path("uploadToken").asText(""), etags))
                    .onFailure()
                    .recoverWithItem(failure -> PlatformResponses.brokenUpload("LinkedIn", failure));
        });
    }

    /**
     * The parts in byte order, or null unless they cover [0, size) without gaps or overlaps: bytes are sent as the
     * source streams them, once.
     */
    static List<VideoPart> parts(JsonNode instructions, long size) {
        List<VideoPart> parts = new ArrayList<>();
        for (JsonNode instruction : instructions) {
            if (!instruction.hasNonNull("uploadUrl")
                    || !instruction.path("firstByte").canConvertToLong()
                    || !instruction.path("lastByte").canConvertToLong()) {
                return null;
            }
            parts.add(new VideoPart(
                    instruction.get("uploadUrl").asText(),
                    instruction.get("firstByte").asLong(),
                    instruction.get("lastByte").asLong()));
        }
        parts.sort(Comparator.comparingLong(VideoPart::firstByte));
        long next = 0;
        for (VideoPart part : parts) {
            if (part.firstByte() != next || part.lastByte() < part.firstByte()) {
                return null;
            }
            next = part.lastByte() + 1;
        }
        return parts.isEmpty() || next != size ? null : parts;
    }

    /** Streams part {@code index} and the ones after it; null once LinkedIn took them all (their ETags in {@code etags}). */
    private Uni<PlatformAnswer> sendParts(
            List<VideoPart> parts, int index, SourceChunks slices, Runnable closeSource, List<String> etags) {
        if (index == parts.size()) {
            return Uni.createFrom().nullItem();
        }
        VideoPart part = parts.get(index);
        return ingest.http().stream(
                        HttpMethod.PUT,
                        StreamingHttp.Endpoint.of(part.uploadUrl()),
                        Map.of("Content-Type", "application/octet-stream"),
                        part.length(),
                        slices.next(part.length()),
                        closeSource)
                .flatMap(answer -> {
                    String etag = answer.header("ETag");
                    if (answer.status() / 100 != 2 || etag == null || etag.isBlank()) {
                        closeSource.run();
                        return Uni.createFrom()
                                .item(PlatformResponses.uploadRefused(
                                        answer,
                                        "LinkedIn refused part " + (index + 1) + " of " + parts.size()
                                                + " of the video"));
                    }
                    etags.add(etag);
                    return sendParts(parts, index + 1, slices, closeSource, etags);
                });
    }

    private Uni<PlatformAnswer> finalizeVideo(
            ProviderAccess access, String urn, String uploadToken, List<String> etags) {
        ObjectNode request = mapper.createObjectNode();
        ObjectNode finalize =
                request.putObject("finalizeUploadRequest").put("video", urn).put("uploadToken", uploadToken);
        etags.forEach(finalize.putArray("uploadedPartIds")::add);
        return mediaAction(access, "videos", "finalizeUpload", request)
                .map(response -> response.getStatus() / 100 == 2
                        ? new PlatformAnswer.Processing(urn)
                        // Not finalized, or its answer lost: either way the video is posted by no one, and is simply
                        // left behind.
                        : LinkedInErrors.refusal(
                                response.getStatus(),
                                response,
                                PlatformResponses.body(mapper, response),
                                "LinkedIn refused to finalize the video upload"));
    }

    private Uni<Response> mediaAction(ProviderAccess access, String media, String action, ObjectNode request) {
        return api.mediaAction(
                PlatformResponses.bearer(access),
                config.apiVersion(),
                LinkedInApi.PROTOCOL_VERSION,
                media,
                action,
                LinkedInRequests.json(mapper, request));
    }
}
