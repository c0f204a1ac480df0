package dev.herald.posts.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.FieldError;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.TikTokPublishingOptions;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks of one platform's {@code platform_options} object in a draft (part of {@link PostRules}): its
 * fields, their types and values, and what the platform requires. Problems are added to the draft's errors.
 */
final class PlatformOptionRules {
    private static final Pattern NUMERIC_ID = Pattern.compile("^[0-9]{1,40}$");
    private static final Set<String> YOUTUBE_PRIVACY = Set.of("public", "private", "unlisted");
    private static final Set<String> LINKEDIN_VISIBILITY = Set.of("PUBLIC", "CONNECTIONS");

    private final List<FieldError> errors;
    private final Platform platform;
    private final JsonNode options;
    private final boolean targeted;
    private final String prefix;

    PlatformOptionRules(Platform platform, JsonNode options, boolean targeted, List<FieldError> errors) {
        this.platform = platform;
        this.options = options;
        this.targeted = targeted;
        this.prefix = "platform_options." + platform.wireName() + ".";
        this.errors = errors;
    }

    void check(List<AccountForPosting> accounts) {
        switch (platform) {
            case TIKTOK -> tiktok(accounts);
            case YOUTUBE -> {
                known("privacy_status", "made_for_kids", "title");
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
                known("board_id", "board_section_id", "title", "link", "alt_text");
                numericId("board_id", true);
                numericId("board_section_id", false);
                string("title", false, 1, 100);
                url("link");
                string("alt_text", false, 1, 500);
            }
            case INSTAGRAM -> {
                known("share_to_feed", "format");
                bool("share_to_feed", false);
            }
            case FACEBOOK -> {
                known("link", "format");
                url("link");
            }
            case LINKEDIN -> {
                known("visibility", "alt_text");
                String visibility = string("visibility", false, 1, 20);
                if (visibility != null && !LINKEDIN_VISIBILITY.contains(visibility)) {
                    reject(
                            prefix + "visibility",
                            "invalid_value",
                            prefix + "visibility must be PUBLIC or CONNECTIONS.");
                }
                // An image post's alternative text (LinkedIn's altText, at most 4086 characters; unused on video).
                string("alt_text", false, 1, 4086);
            }
        }
    }

    /**
     * TikTok requires the creator to choose the privacy level from the creator's own options, with no
     * default, and forbids turning on an interaction the creator has disabled (TikTok's content sharing
     * guidelines). Checked against every TikTok account of the post.
     */
    private void tiktok(List<AccountForPosting> accounts) {
        known(
                "privacy_level",
                "disable_comment",
                "disable_duet",
                "disable_stitch",
                "brand_content_toggle",
                "brand_organic_toggle");
        String privacy = string("privacy_level", true, 1, 50);
        Boolean disableComment = bool("disable_comment", false);
        Boolean disableDuet = bool("disable_duet", false);
        Boolean disableStitch = bool("disable_stitch", false);
        bool("brand_content_toggle", false);
        bool("brand_organic_toggle", false);
        for (AccountForPosting account : accounts) {
            TikTokPublishingOptions creator = account.publishingOptions();
            if (creator == null) {
                continue;
            }
            String id = account.account().id();
            if (privacy != null && !creator.privacyLevelOptions().contains(privacy)) {
                reject(
                        prefix + "privacy_level",
                        "invalid_value",
                        "Account " + id + " offers privacy levels "
                                + String.join(", ", creator.privacyLevelOptions()) + "; " + privacy
                                + " is not one of them.");
            }
            interaction("disable_comment", disableComment, creator.commentDisabled(), id, "comments");
            interaction("disable_duet", disableDuet, creator.duetDisabled(), id, "duets");
            interaction("disable_stitch", disableStitch, creator.stitchDisabled(), id, "stitches");
        }
    }

    private void interaction(String field, Boolean disable, boolean disabledByCreator, String accountId, String what) {
        if (disabledByCreator && Boolean.FALSE.equals(disable)) {
            reject(
                    prefix + field,
                    "invalid_value",
                    "Account " + accountId + " has " + what + " turned off; " + field + " must be true or omitted.");
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
