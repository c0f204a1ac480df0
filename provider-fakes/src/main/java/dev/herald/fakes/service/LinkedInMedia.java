package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.ReceivedBytes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * LinkedIn's Images, Documents and Videos APIs: registering an image, a document or a video
 * ({@code initializeUpload}), its bytes at the upload URLs, a video's {@code finalizeUpload} and status; the media
 * registered, by URN, for posts to attach.
 */
final class LinkedInMedia {
    private static final long VIDEO_PART_BYTES = 4L * 1024 * 1024;
    /** By URN. */
    private final Map<String, Media> media = new ConcurrentHashMap<>();
    /** Upload id (the last path segment of an upload URL) to its media's URN. */
    private final Map<String, String> uploads = new ConcurrentHashMap<>();
    /** A video part's upload id to the ETag its PUT answered. */
    private final Map<String, String> partEtags = new ConcurrentHashMap<>();

    private final LinkedInFake fake;

    LinkedInMedia(LinkedInFake fake) {
        this.fake = fake;
    }

    /** Media an owner registered, by URN: its upload state and, for a video, its parts' upload ids. */
    record Media(String urn, String owner, String status, List<String> parts) {
        Media withStatus(String other) {
            return new Media(urn, owner, other, parts);
        }
    }

    /**
     * Registers an image, a document or a video of the owner ({@code api}: {@code images}, {@code documents},
     * {@code videos}); its upload URL(s) on the host the caller reached the fake at.
     */
    FakeResponse initializeUpload(FakeRequest request, String api) {
        if (!"2.0.0".equals(request.header("x-restli-protocol-version"))) {
            return fake.error(400, 0, "BAD_REQUEST", "X-Restli-Protocol-Version 2.0.0 is required.");
        }
        JsonNode body = fake.jsonBody(request);
        JsonNode initialize = body == null ? null : body.path("initializeUploadRequest");
        String owner = initialize == null ? "" : initialize.path("owner").asText("");
        if (!LinkedInFake.PERSON_URN.equals(owner) && !LinkedInFake.ORGANIZATION_URN.equals(owner)) {
            return fake.error(403, 100, "ACCESS_DENIED", "Not enough permissions to access: the owner " + owner);
        }
        String base = "http://" + request.header("host") + "/" + fake.platform() + LinkedInFake.UPLOADS;
        long expiresAt = Instant.now().plus(Duration.ofDays(1)).toEpochMilli();
        ObjectNode value = fake.object();
        if (!"videos".equals(api)) {
            // An image or a document: one URN, one upload URL for the whole file.
            String kind = "images".equals(api) ? "image" : "document";
            String urn = "urn:li:" + kind + ":" + FakeIds.alphanumeric(19);
            String uploadId = FakeIds.alphanumeric(24);
            media.put(urn, new Media(urn, owner, "WAITING_UPLOAD", List.of(uploadId)));
            uploads.put(uploadId, urn);
            value.put("uploadUrlExpiresAt", expiresAt)
                    .put("uploadUrl", base + uploadId)
                    .put(kind, urn);
            return fake.json(200, fake.object().set("value", value));
        }
        long size = initialize.path("fileSizeBytes").asLong(0);
        if (size <= 0) {
            return fake.error(
                    422, 0, "UNPROCESSABLE_ENTITY", "/initializeUploadRequest/fileSizeBytes :: must be positive");
        }
        String urn = "urn:li:video:" + FakeIds.alphanumeric(19);
        List<String> parts = new ArrayList<>();
        ArrayNode instructions = value.put("uploadUrlsExpireAt", expiresAt)
                .put("video", urn)
                .put("uploadToken", "")
                .putArray("uploadInstructions");
        for (long first = 0; first < size; first += VIDEO_PART_BYTES) {
            String uploadId = FakeIds.alphanumeric(24);
            parts.add(uploadId);
            uploads.put(uploadId, urn);
            instructions
                    .addObject()
                    .put("uploadUrl", base + uploadId)
                    .put("firstByte", first)
                    .put("lastByte", Math.min(size, first + VIDEO_PART_BYTES) - 1);
        }
        media.put(urn, new Media(urn, owner, "WAITING_UPLOAD", List.copyOf(parts)));
        return fake.json(200, fake.object().set("value", value));
    }

    /**
     * Bytes for an upload URL: an image or a document is then available (LinkedIn processes a document first; the
     * fake at once); a video part answers its ETag for the finalize call.
     */
    FakeResponse receive(String uploadId, FakeRequest request) {
        String urn = uploads.get(uploadId);
        ReceivedBytes bytes = request.upload();
        if (urn == null || bytes == null || bytes.size() == 0) {
            return fake.error(400, 0, "BAD_REQUEST", "No upload is waiting at this URL, or it carried no bytes.");
        }
        if (urn.startsWith("urn:li:image:") || urn.startsWith("urn:li:document:")) {
            media.computeIfPresent(urn, (key, whole) -> whole.withStatus("AVAILABLE"));
            return FakeResponse.empty(201);
        }
        String etag = "\"" + bytes.sha256().substring(0, 32) + "\"";
        partEtags.put(uploadId, etag);
        return FakeResponse.empty(200).withHeader("ETag", etag);
    }

    FakeResponse finalizeUpload(FakeRequest request) {
        JsonNode body = fake.jsonBody(request);
        JsonNode finalize = body == null ? null : body.path("finalizeUploadRequest");
        Media video = finalize == null ? null : media.get(finalize.path("video").asText(""));
        if (video == null) {
            return fake.error(404, 0, "NOT_FOUND", "Not Found");
        }
        List<String> expected = video.parts().stream().map(partEtags::get).toList();
        List<String> given = new ArrayList<>();
        finalize.path("uploadedPartIds").forEach(id -> given.add(id.asText()));
        if (!expected.equals(given)) {
            return fake.error(
                    400,
                    0,
                    "BAD_REQUEST",
                    "/finalizeUploadRequest/uploadedPartIds :: the parts' ETags, in order, were " + "expected ("
                            + given.size() + " of " + expected.size() + " given)");
        }
        media.put(video.urn(), video.withStatus("AVAILABLE"));
        return FakeResponse.empty(200);
    }

    /** The media registered under this URN, or null. */
    Media find(String urn) {
        return media.get(urn);
    }

    /** {@code GET /rest/videos/{urn}}: a registered video's owner and status. */
    FakeResponse video(String urn) {
        Media found = media.get(urn);
        if (found == null) {
            return fake.error(404, 0, "NOT_FOUND", "Not Found");
        }
        return fake.json(
                200,
                fake.object().put("id", found.urn()).put("owner", found.owner()).put("status", found.status()));
    }

    void reset() {
        media.clear();
        uploads.clear();
        partEtags.clear();
    }
}
