package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import dev.herald.fakes.model.IssuedGrant;
import java.time.Instant;
import java.util.List;

/**
 * LinkedIn's Posts API: creating a post as the member or an organization (text, an article, an uploaded image, video
 * or document, or 2 to 20 uploaded images as MultiImage content), and listing an author's posts.
 */
final class LinkedInPosts {
    static final int MIN_IMAGES = 2;
    static final int MAX_IMAGES = 20;
    private final LinkedInFake fake;

    LinkedInPosts(LinkedInFake fake) {
        this.fake = fake;
    }

    FakeResponse createPost(FakeRequest request, IssuedGrant grant) {
        JsonNode post = fake.jsonBody(request);
        if (post == null) {
            return fake.error(400, 0, "BAD_REQUEST", "The request body is not a JSON object.");
        }
        if (!"2.0.0".equals(request.header("x-restli-protocol-version"))) {
            return fake.error(400, 0, "BAD_REQUEST", "X-Restli-Protocol-Version 2.0.0 is required by the Posts API.");
        }
        String author = post.path("author").asText("");
        if (!LinkedInFake.PERSON_URN.equals(author) && !LinkedInFake.ORGANIZATION_URN.equals(author)) {
            return fake.error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: partnerApiPostsExternal.CREATE."
                            + request.header("linkedin-version"));
        }
        String scope = LinkedInFake.PERSON_URN.equals(author) ? "w_member_social" : "w_organization_social";
        if (!grant.scopes().contains(scope)) {
            return fake.error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: partnerApiPostsExternal.CREATE."
                            + request.header("linkedin-version") + " (the token lacks " + scope + ")");
        }
        for (String field : List.of("commentary", "visibility", "distribution", "lifecycleState")) {
            if (!post.hasNonNull(field)) {
                return fake.error(
                        422,
                        0,
                        "UNPROCESSABLE_ENTITY",
                        "/" + field + " :: field is required but not found and has no" + " default value");
            }
        }
        String mediaUrn = post.path("content").path("media").path("id").asText(null);
        if (mediaUrn != null) {
            LinkedInMedia.Media attached = fake.media.find(mediaUrn);
            if (attached == null
                    || !"AVAILABLE".equals(attached.status())
                    || !attached.owner().equals(author)) {
                return fake.error(
                        422,
                        0,
                        "UNPROCESSABLE_ENTITY",
                        "/content/media/id :: " + mediaUrn + " is not an available upload of the author");
            }
        }
        JsonNode multiImage = post.path("content").path("multiImage");
        if (!multiImage.isMissingNode()) {
            FakeResponse refused = multiImageRefusal(post, multiImage, author);
            if (refused != null) {
                return refused;
            }
        }
        String urn = "urn:li:share:" + FakeIds.digits(19);
        long now = Instant.now().toEpochMilli();
        ObjectNode stored = ((ObjectNode) post.deepCopy())
                .put("id", urn)
                .put("createdAt", now)
                .put("lastModifiedAt", now)
                .put("publishedAt", now);
        fake.publish(stored);
        return FakeResponse.empty(201).withHeader("x-restli-id", urn).withHeader("x-linkedin-id", urn);
    }

    /**
     * LinkedIn's MultiImage content (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api):
     * 2 to 20 images, each an available upload of the author, and no other media beside them; null when it is so.
     */
    private FakeResponse multiImageRefusal(JsonNode post, JsonNode multiImage, String author) {
        if (post.path("content").has("media")) {
            return fake.error(
                    422, 0, "UNPROCESSABLE_ENTITY", "/content :: media and multiImage cannot be given together");
        }
        JsonNode images = multiImage.path("images");
        if (!images.isArray() || images.size() < MIN_IMAGES || images.size() > MAX_IMAGES) {
            return fake.error(
                    422,
                    0,
                    "UNPROCESSABLE_ENTITY",
                    "/content/multiImage/images :: a MultiImage post takes " + MIN_IMAGES + " to " + MAX_IMAGES
                            + " images, " + images.size() + " given");
        }
        for (int i = 0; i < images.size(); i++) {
            String urn = images.get(i).path("id").asText("");
            LinkedInMedia.Media image = urn.startsWith("urn:li:image:") ? fake.media.find(urn) : null;
            if (image == null
                    || !"AVAILABLE".equals(image.status())
                    || !image.owner().equals(author)) {
                return fake.error(
                        422,
                        0,
                        "UNPROCESSABLE_ENTITY",
                        "/content/multiImage/images/" + i + "/id :: " + urn
                                + " is not an available image upload of the author");
            }
        }
        return null;
    }

    FakeResponse postsByAuthor(FakeRequest request, IssuedGrant grant) {
        if (!"author".equals(request.queryParameter("q"))) {
            return fake.error(400, 0, "BAD_REQUEST", "Only the author finder (q=author) is faked.");
        }
        String author = request.queryParameter("author");
        String scope = LinkedInFake.PERSON_URN.equals(author) ? "r_member_social" : "r_organization_social";
        if (!grant.scopes().contains(scope)) {
            return fake.error(
                    403,
                    100,
                    "ACCESS_DENIED",
                    "Not enough permissions to access: partnerApiPostsExternal.FINDER-author."
                            + request.header("linkedin-version"));
        }
        int count = request.intQueryParameter("count", 10);
        ObjectNode body = fake.object();
        ArrayNode elements = body.putArray("elements");
        fake.publishedWhere(post -> post.path("author").asText("").equals(author)).stream()
                .limit(count)
                .forEach(elements::add);
        body.putObject("paging").put("start", 0).put("count", count).putArray("links");
        return fake.json(200, body);
    }
}
