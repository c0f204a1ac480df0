package dev.herald.posts.service.media;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a media host's headers say: its media type, the file format that type names, and the size of the file. */
final class ContentTypes {
    private static final Pattern CONTENT_RANGE = Pattern.compile("^bytes (\\d{1,18})-(\\d{1,18})/(\\d{1,18}|\\*)$");
    private static final Pattern DIGITS = Pattern.compile("\\d{1,18}");

    /** The file format a media type names, in {@link MediaFacts#container()}'s words. */
    private static final Map<String, String> CONTAINERS = Map.ofEntries(
            Map.entry("image/jpeg", "jpeg"),
            Map.entry("image/jpg", "jpeg"),
            Map.entry("image/pjpeg", "jpeg"),
            Map.entry("image/png", "png"),
            Map.entry("image/gif", "gif"),
            Map.entry("image/webp", "webp"),
            Map.entry("image/bmp", "bmp"),
            Map.entry("image/tiff", "tiff"),
            Map.entry("image/heic", "heif"),
            Map.entry("image/heif", "heif"),
            Map.entry("image/avif", "heif"),
            Map.entry("video/mp4", "mp4"),
            Map.entry("video/x-m4v", "mp4"),
            Map.entry("video/quicktime", "mov"),
            Map.entry("video/webm", "webm"),
            Map.entry("video/x-matroska", "webm"),
            Map.entry("video/x-msvideo", "avi"),
            Map.entry("video/avi", "avi"),
            Map.entry("video/x-ms-wmv", "wmv"),
            Map.entry("video/x-flv", "flv"),
            Map.entry("video/3gpp", "3gp"),
            Map.entry("video/mpeg", "mpeg"),
            Map.entry("application/pdf", "pdf"),
            Map.entry("application/msword", "doc"),
            Map.entry("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"),
            Map.entry("application/vnd.ms-powerpoint", "ppt"),
            Map.entry("application/vnd.openxmlformats-officedocument.presentationml.presentation", "pptx"));

    private static final Set<String> DOCUMENTS = Set.of("pdf", "doc", "docx", "ppt", "pptx");

    private ContentTypes() {}

    /** Where a ranged answer starts and the whole file's size (null when not given). */
    record Range(long start, Long total) {}

    /** {@code image/jpeg} from {@code Image/JPEG; charset=binary}; null when absent or blank. */
    static String bare(String header) {
        if (header == null) {
            return null;
        }
        int semicolon = header.indexOf(';');
        String type = (semicolon < 0 ? header : header.substring(0, semicolon))
                .strip()
                .toLowerCase(Locale.ROOT);
        return type.isEmpty() ? null : type;
    }

    /** The file format {@code type} names, or null for a type Herald does not know (or none). */
    static String container(String type) {
        return type == null ? null : CONTAINERS.get(type);
    }

    /**
     * Image, video or document as {@code type} says ({@code image/...}, {@code video/...}, a PDF or Office document's
     * type), or null.
     */
    static MediaFacts.Kind kind(String type) {
        if (type == null) {
            return null;
        }
        String container = container(type);
        if (container != null && DOCUMENTS.contains(container)) { // Set.of refuses to look up null
            return MediaFacts.Kind.DOCUMENT;
        }
        return type.startsWith("image/")
                ? MediaFacts.Kind.IMAGE
                : type.startsWith("video/") ? MediaFacts.Kind.VIDEO : null;
    }

    /** A {@code 206}'s {@code Content-Range}; a full answer starts at 0 and its size is its length. */
    static Range range(int status, String header) {
        Matcher range = header == null ? null : CONTENT_RANGE.matcher(header.strip());
        if (status != 206 || range == null || !range.matches()) {
            return new Range(0, null);
        }
        return new Range(
                Long.parseLong(range.group(1)), range.group(3).equals("*") ? null : Long.parseLong(range.group(3)));
    }

    static Long length(String header) {
        return header != null && DIGITS.matcher(header.strip()).matches() ? Long.parseLong(header.strip()) : null;
    }
}
