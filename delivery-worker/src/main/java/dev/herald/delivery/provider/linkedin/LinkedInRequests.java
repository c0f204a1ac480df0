package dev.herald.delivery.provider.linkedin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The bodies of LinkedIn's Posts API requests ({@code /rest/posts}), and any request's JSON. */
final class LinkedInRequests {

    private LinkedInRequests() {}

    /** {@code visibility}: the post's LinkedIn option ({@code PUBLIC}, the default, or {@code CONNECTIONS}). */
    static ObjectNode postOf(ObjectMapper mapper, String author, String commentary, String visibility) {
        ObjectNode post = mapper.createObjectNode();
        post.put("author", author);
        post.put("commentary", commentary);
        post.put("visibility", visibility);
        ObjectNode distribution = post.putObject("distribution");
        distribution.put("feedDistribution", "MAIN_FEED");
        distribution.putArray("targetEntities");
        distribution.putArray("thirdPartyDistributionChannels");
        post.put("lifecycleState", "PUBLISHED");
        post.put("isReshareDisabledByAuthor", false);
        return post;
    }

    /** The post with its media: {@code content.media.id} the image or video URN, and an image's alternative text. */
    static ObjectNode withMedia(ObjectNode post, String urn, String altText) {
        ObjectNode media = post.putObject("content").putObject("media");
        if (altText != null && !altText.isBlank()) {
            media.put("altText", altText);
        }
        media.put("id", urn);
        return post;
    }

    /**
     * The post with a document (LinkedIn's Documents API URN): {@code content.media} with its {@code id} and the
     * {@code title} LinkedIn shows over the document: the post's {@code title} option, else the file's name without its
     * extension, else "Document".
     */
    static ObjectNode withDocument(ObjectNode post, String urn, String titleOption, String mediaUrl) {
        ObjectNode media = post.putObject("content").putObject("media");
        media.put("title", documentTitle(titleOption, mediaUrl));
        media.put("id", urn);
        return post;
    }

    static String documentTitle(String option, String mediaUrl) {
        if (option != null && !option.isBlank()) {
            return option.strip();
        }
        String path = URI.create(mediaUrl).getRawPath();
        String name = path == null
                ? ""
                : URLDecoder.decode(path.substring(path.lastIndexOf('/') + 1), StandardCharsets.UTF_8);
        name = name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : name;
        return name.isBlank() ? "Document" : name.strip();
    }

    /**
     * The post with several images (LinkedIn's MultiImage content, 2 to 20 images the author uploaded):
     * {@code content.multiImage.images[{id}]} in the post's order.
     */
    static ObjectNode withImages(ObjectNode post, List<String> urns) {
        ArrayNode images = post.putObject("content").putObject("multiImage").putArray("images");
        urns.forEach(urn -> images.addObject().put("id", urn));
        return post;
    }

    static String json(ObjectMapper mapper, ObjectNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a LinkedIn request cannot be serialized", e);
        }
    }
}
