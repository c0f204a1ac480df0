package dev.herald.delivery.provider.youtube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.delivery.provider.PublishRequest;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * The video resource a YouTube upload session opens with ({@link YouTubePublisher}): the post's text and options as
 * the {@code snippet} and {@code status} YouTube takes, within its limits on titles and descriptions.
 */
final class YouTubeVideoResource {
    static final int TITLE_MAX_CHARACTERS = 100;
    static final int DESCRIPTION_MAX_BYTES = 5000;

    private YouTubeVideoResource() {}

    /** The video resource of the session: its snippet (title, description) and status (privacy, made for kids). */
    static ObjectNode of(ObjectMapper mapper, PublishRequest request) {
        JsonNode options = request.platformOptions() == null ? mapper.createObjectNode() : request.platformOptions();
        String text = request.text() == null ? "" : request.text();
        ObjectNode video = mapper.createObjectNode();
        ObjectNode snippet = video.putObject("snippet");
        snippet.put(
                "title",
                title(options.path("title").asText(null), text, request.medium().url()));
        snippet.put("description", cutToBytes(withoutAngleBrackets(text), DESCRIPTION_MAX_BYTES));
        ObjectNode status = video.putObject("status");
        status.put("privacyStatus", options.path("privacy_status").asText("private"));
        status.put("selfDeclaredMadeForKids", options.path("made_for_kids").asBoolean(false));
        return video;
    }

    /**
     * The {@code title} option as given (posts-service refused one with {@code <} or {@code >}), else the text's first
     * non-blank line, else the media's file name: YouTube requires a title of at most 100 characters without angle
     * brackets.
     */
    static String title(String option, String text, String mediaUrl) {
        if (option != null && !option.isBlank()) {
            return cutToCharacters(withoutAngleBrackets(option.strip()), TITLE_MAX_CHARACTERS);
        }
        for (String line : text.split("\\R")) {
            if (!line.isBlank()) {
                return cutToCharacters(withoutAngleBrackets(line.strip()), TITLE_MAX_CHARACTERS);
            }
        }
        String path = URI.create(mediaUrl).getRawPath();
        String name = path == null
                ? ""
                : URLDecoder.decode(path.substring(path.lastIndexOf('/') + 1), StandardCharsets.UTF_8);
        name = name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : name;
        return name.isBlank() ? "Video" : cutToCharacters(withoutAngleBrackets(name.strip()), TITLE_MAX_CHARACTERS);
    }

    /** YouTube refuses {@code <} and {@code >} in titles and descriptions; single angle quotation marks read the same. */
    static String withoutAngleBrackets(String text) {
        return text.replace('<', '\u2039').replace('>', '\u203A');
    }

    static String cutToCharacters(String text, int max) {
        return text.codePointCount(0, text.length()) <= max ? text : text.substring(0, text.offsetByCodePoints(0, max));
    }

    /** At most {@code max} bytes of UTF-8, cut between characters. */
    static String cutToBytes(String text, int max) {
        if (text.getBytes(StandardCharsets.UTF_8).length <= max) {
            return text;
        }
        int bytes = 0;
        int end = 0;
        while (end < text.length()) {
            int codePoint = text.codePointAt(end);
            int size = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + size > max) {
                break;
            }
            bytes += size;
            end += Character.charCount(codePoint);
        }
        return text.substring(0, end);
    }
}
