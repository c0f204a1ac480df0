package dev.herald.posts.service;

import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Platform;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each platform's documented limits on a post's {@code text}: its length, and how many hashtags and @mentions it may
 * hold where the platform says (Instagram's content publishing API: 2200 characters, 30 hashtags, 20 @mentions;
 * YouTube ignores every hashtag of a video whose description holds more than 60, so more are refused rather than lost).
 */
final class CaptionRules {
    /** Each platform's own caption limit, in characters (Facebook's 63,206 is above the API's 5,000). */
    static final Map<Platform, Integer> LENGTH_LIMITS = Map.of(
            Platform.TIKTOK,
            2200,
            Platform.INSTAGRAM,
            2200,
            Platform.FACEBOOK,
            5000,
            Platform.YOUTUBE,
            5000,
            Platform.PINTEREST,
            500,
            Platform.LINKEDIN,
            3000);

    static final Map<Platform, Integer> HASHTAG_LIMITS = Map.of(Platform.INSTAGRAM, 30, Platform.YOUTUBE, 60);
    static final Map<Platform, Integer> MENTION_LIMITS = Map.of(Platform.INSTAGRAM, 20);

    /** A hashtag: # and letters, digits or underscores, not inside a word or an HTML entity. */
    private static final Pattern HASHTAG = Pattern.compile("(?<![\\p{L}\\p{N}_&#])#[\\p{L}\\p{N}_]+");
    /** An @mention: @ and a username (letters, digits, periods, underscores), not inside a word or an email address. */
    private static final Pattern MENTION = Pattern.compile("(?<![\\p{L}\\p{N}_.@])@[\\p{L}\\p{N}_.]+");

    private CaptionRules() {}

    static List<FieldError> check(String text, Platform platform) {
        List<FieldError> problems = new ArrayList<>();
        int length = FirstCommentRules.length(text);
        int limit = LENGTH_LIMITS.get(platform);
        if (length > limit) {
            problems.add(new FieldError(
                    "text",
                    "too_long",
                    "text is " + length + " characters; " + platform.displayName() + " allows at most " + limit + "."));
        }
        Integer hashtags = HASHTAG_LIMITS.get(platform);
        int found = hashtags == null ? 0 : count(HASHTAG, text);
        if (hashtags != null && found > hashtags) {
            problems.add(new FieldError(
                    "text",
                    "too_many_hashtags",
                    "text holds " + found + " hashtags; " + platform.displayName() + " takes at most " + hashtags
                            + "."));
        }
        Integer mentions = MENTION_LIMITS.get(platform);
        found = mentions == null ? 0 : count(MENTION, text);
        if (mentions != null && found > mentions) {
            problems.add(new FieldError(
                    "text",
                    "too_many_mentions",
                    "text holds " + found + " @mentions; " + platform.displayName() + " takes at most " + mentions
                            + "."));
        }
        return problems;
    }

    private static int count(Pattern pattern, String text) {
        int count = 0;
        for (Matcher matcher = pattern.matcher(text); matcher.find(); ) {
            count++;
        }
        return count;
    }
}
