package dev.herald.posts.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.FieldError;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.TikTokPublishingOptions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks of one platform's {@code platform_options} object in a draft (part of {@link PostRules}): its fields, their
 * types and values, and what the platform requires. Problems are added to {@code errors}: the platform's, which the
 * rules give each target of that platform (or the post, when none is targeted). What other rules depend on is read
 * here too: the content {@link #format()} and the platform's {@link #firstComment()} override. A creator's own TikTok
 * settings are one account's: {@link #creatorProblems}. About 330 lines: six short platform cases sharing one set of
 * field readers ({@code string}, {@code bool}, {@code integer}, ...); split per platform, each would need the readers
 * again.
 */
final class PlatformOptionRules {
    private static final Pattern NUMERIC_ID = Pattern.compile("^[0-9]{1,40}$");
    private static final Set<String> YOUTUBE_PRIVACY = Set.of("public", "private", "unlisted");
    private static final Set<String> LINKEDIN_VISIBILITY = Set.of("PUBLIC", "CONNECTIONS");
    private static final String FIRST_COMMENT = "first_comment";

    private final List<FieldError> errors;
    private final Platform platform;
    private final JsonNode options;
    private final boolean targeted;
    private final String prefix;
    private PostFormat format = PostFormat.FEED;
    private Post.FirstComment firstComment;
    private boolean firstCommentGiven;
    private String tiktokPrivacy;
    private Boolean disableComment;
    private Boolean disableDuet;
    private Boolean disableStitch;
    private Integer photoCoverIndex;

    PlatformOptionRules(Platform platform, JsonNode options, boolean targeted, List<FieldError> errors) {
        this.platform = platform;
        this.options = options;
        this.targeted = targeted;
        this.prefix = "platform_options." + platform.wireName() + ".";
        this.errors = errors;
    }

    /** The format chosen (feed when none was), or null when the one given is not a format. */
    PostFormat format() {
        return format;
    }

    /** The platform's own first comment, or null when none was given or it is malformed ({@link #firstCommentGiven}). */
    Post.FirstComment firstComment() {
        return firstComment;
    }

    /** Whether the options give a first comment of their own (well formed or not), overriding the post's. */
    boolean firstCommentGiven() {
        return firstCommentGiven;
    }

    PlatformOptionRules check() {
        switch (platform) {
            case TIKTOK -> tiktok();
            case YOUTUBE -> {
                known("privacy_status", "made_for_kids", "title", FIRST_COMMENT);
                String privacy = string("privacy_status", true, 1, 20);
                if (privacy != null && !YOUTUBE_PRIVACY.contains(privacy)) {
                    reject(
                            prefix + "privacy_status",
                            "invalid_value",
                            prefix + "privacy_status must be public, private or unlisted.");
                }
                bool("made_for_kids", true);
                String title = string("title", false, 1, 100);
                if (title != null && (title.contains("<") || title.contains(">"))) {
                    reject(prefix + "title", "invalid_value", "YouTube titles cannot contain < or >.");
                }
            }
            case PINTEREST -> {
                known("board_id", "board_section_id", "title", "link", "alt_text", FIRST_COMMENT);
                numericId("board_id", true);
                numericId("board_section_id", false);
                string("title", false, 1, 100);
                url("link");
                string("alt_text", false, 1, 500);
            }
            case INSTAGRAM -> {
                known("format", "share_to_feed", FIRST_COMMENT);
                format = readFormat();
                if (bool("share_to_feed", false) != null && format == PostFormat.STORY) {
                    reject(
                            prefix + "share_to_feed",
                            "invalid_value",
                            prefix + "share_to_feed applies to reels and feed videos; a story is never shared to the"
                                    + " feed.");
                }
            }
            case FACEBOOK -> {
                known("format", "link", FIRST_COMMENT);
                format = readFormat();
                url("link");
            }
            case LINKEDIN -> {
                known("visibility", "alt_text", "title", FIRST_COMMENT);
                String visibility = string("visibility", false, 1, 20);
                if (visibility != null && !LINKEDIN_VISIBILITY.contains(visibility)) {
                    reject(
                            prefix + "visibility",
                            "invalid_value",
                            prefix + "visibility must be PUBLIC or CONNECTIONS.");
                }
                // An image post's alternative text (LinkedIn's altText, at most 4086 characters; unused on video).
                string("alt_text", false, 1, 4086);
                // A document post's title (the Posts API's content.media.title, shown over the document; unused on
                // images and videos). LinkedIn documents no length: 400 is Herald's bound, ample for a title.
                string("title", false, 1, 400);
            }
        }
        readFirstComment();
        return this;
    }

    /** {@code format}: feed (the default), reel or story. */
    private PostFormat readFormat() {
        JsonNode value = options == null ? null : options.get("format");
        String given = string("format", false, 1, 20);
        if (value == null || value.isNull()) {
            return PostFormat.FEED;
        }
        if (given == null) {
            return null; // refused as malformed already
        }
        PostFormat chosen = PostFormat.fromWire(given).orElse(null);
        if (chosen == null) {
            reject(prefix + "format", "invalid_value", prefix + "format must be feed, reel or story.");
        }
        return chosen;
    }

    /**
     * {@code first_comment}: the platform's own, shaped like the post's. TikTok and Pinterest have no API to comment on
     * a post as its author: a comment for them is refused, never silently dropped.
     */
    private void readFirstComment() {
        JsonNode value = options == null ? null : options.get(FIRST_COMMENT);
        if (value == null || value.isNull()) {
            return;
        }
        firstCommentGiven = true;
        if (!FirstCommentRules.LIMITS.containsKey(platform)) {
            reject(
                    prefix + FIRST_COMMENT,
                    "not_supported",
                    platform.displayName() + " has no API to post a first comment; omit " + prefix + FIRST_COMMENT
                            + ".");
            return;
        }
        firstComment = FirstCommentRules.read(value, prefix + FIRST_COMMENT, errors);
    }

    /**
     * TikTok requires the creator to choose the privacy level from the creator's own options, with no default, and
     * forbids turning on an interaction the creator has disabled (TikTok's content sharing guidelines): the choices
     * are read here, and checked against each TikTok account's own settings by {@link #creatorProblems}.
     */
    private void tiktok() {
        known(
                "privacy_level",
                "disable_comment",
                "disable_duet",
                "disable_stitch",
                "brand_content_toggle",
                "brand_organic_toggle",
                "title",
                "auto_add_music",
                "photo_cover_index",
                FIRST_COMMENT);
        tiktokPrivacy = string("privacy_level", true, 1, 50);
        disableComment = bool("disable_comment", false);
        disableDuet = bool("disable_duet", false);
        disableStitch = bool("disable_stitch", false);
        bool("brand_content_toggle", false);
        bool("brand_organic_toggle", false);
        // A photo post's own title (TikTok takes at most 90 characters), music, and which photo is the cover.
        string("title", false, 1, 90);
        bool("auto_add_music", false);
        photoCoverIndex = integer("photo_cover_index", 0, 34);
    }

    /** TikTok's {@code photo_cover_index}, when given and a whole number from 0 to 34. */
    Integer photoCoverIndex() {
        return photoCoverIndex;
    }

    /** The TikTok choices this account's creator settings do not allow (none for other platforms). */
    List<FieldError> creatorProblems(AccountForPosting account) {
        TikTokPublishingOptions creator = account.publishingOptions();
        if (platform != Platform.TIKTOK || creator == null) {
            return List.of();
        }
        List<FieldError> problems = new ArrayList<>();
        String id = account.account().id();
        if (tiktokPrivacy != null && !creator.privacyLevelOptions().contains(tiktokPrivacy)) {
            problems.add(new FieldError(
                    prefix + "privacy_level",
                    "invalid_value",
                    "Account " + id + " offers privacy levels " + String.join(", ", creator.privacyLevelOptions())
                            + "; " + tiktokPrivacy + " is not one of them."));
        }
        interaction(problems, "disable_comment", disableComment, creator.commentDisabled(), id, "comments");
        interaction(problems, "disable_duet", disableDuet, creator.duetDisabled(), id, "duets");
        interaction(problems, "disable_stitch", disableStitch, creator.stitchDisabled(), id, "stitches");
        return problems;
    }

    private void interaction(
            List<FieldError> problems,
            String field,
            Boolean disable,
            boolean disabledByCreator,
            String accountId,
            String what) {
        if (disabledByCreator && Boolean.FALSE.equals(disable)) {
            problems.add(new FieldError(
                    prefix + field,
                    "invalid_value",
                    "Account " + accountId + " has " + what + " turned off; " + field + " must be true or omitted."));
        }
    }

    private void known(String... fields) {
        if (options == null) {
            return;
        }
        Set<String> allowed = Set.of(fields);
        for (Iterator<String> names = options.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                reject(
                        prefix + name,
                        "unknown_field",
                        prefix + name + " is not an option for " + platform.displayName() + ".");
            }
        }
    }

    private JsonNode value(String field, boolean required) {
        JsonNode value = options == null ? null : options.get(field);
        if (value == null || value.isNull()) {
            if (required && targeted) {
                reject(
                        prefix + field,
                        "required",
                        prefix + field + " is required for " + platform.displayName() + " accounts.");
            }
            return null;
        }
        return value;
    }

    private String string(String field, boolean required, int min, int max) {
        JsonNode value = value(field, required);
        if (value == null) {
            return null;
        }
        if (!value.isTextual()) {
            reject(prefix + field, "invalid_type", prefix + field + " must be a string.");
            return null;
        }
        String text = value.textValue();
        int length = text.codePointCount(0, text.length());
        if (length < min) {
            reject(prefix + field, "too_short", prefix + field + " must not be empty.");
            return null;
        }
        if (length > max) {
            reject(prefix + field, "too_long", prefix + field + " must be at most " + max + " characters.");
            return null;
        }
        return text;
    }

    private Integer integer(String field, int min, int max) {
        JsonNode value = value(field, false);
        if (value == null) {
            return null;
        }
        if (!value.canConvertToInt() || !value.isIntegralNumber()) {
            reject(prefix + field, "invalid_type", prefix + field + " must be a whole number.");
            return null;
        }
        if (value.intValue() < min || value.intValue() > max) {
            reject(prefix + field, "invalid_value", prefix + field + " must be from " + min + " to " + max + ".");
            return null;
        }
        return value.intValue();
    }

    private Boolean bool(String field, boolean required) {
        JsonNode value = value(field, required);
        if (value == null) {
            return null;
        }
        if (!value.isBoolean()) {
            reject(prefix + field, "invalid_type", prefix + field + " must be true or false.");
            return null;
        }
        return value.booleanValue();
    }

    private void numericId(String field, boolean required) {
        String id = string(field, required, 1, 40);
        if (id != null && !NUMERIC_ID.matcher(id).matches()) {
            reject(prefix + field, "invalid_format", prefix + field + " must be a numeric string of 1 to 40 digits.");
        }
    }

    private void url(String field) {
        String url = string(field, false, 1, HttpsUrls.MAX_LENGTH);
        if (url != null) {
            HttpsUrls.problem(url)
                    .ifPresent(
                            problem -> reject(prefix + field, "invalid_format", prefix + field + " " + problem + "."));
        }
    }

    private void reject(String field, String code, String message) {
        errors.add(new FieldError(field, code, message));
    }
}
