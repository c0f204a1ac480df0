package dev.herald.posts.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.api.FieldError;
import dev.herald.common.auth.Mode;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostMedia;
import dev.herald.common.wire.PostValidation;
import dev.herald.common.wire.TikTokPublishingOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link PostRules} on plain drafts and accounts, one case per platform rule. About 400 lines: every platform's media,
 * option and caption rules go through the one entry point and share the draft and account builders at the top.
 */
class PostRulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-11-28T04:00:00Z");

    private final Map<String, AccountForPosting> accounts = new LinkedHashMap<>();

    private String account(Platform platform) {
        return account(platform, AccountHealth.HEALTHY, null, null);
    }

    private String account(Platform platform, String health, String reconnectUrl, TikTokPublishingOptions creator) {
        String id = "acc_" + String.format("%024x", accounts.size() + 1);
        Account account = new Account(
                id,
                platform,
                null,
                platform.displayName() + " account",
                "user" + accounts.size(),
                Account.CONNECTED,
                new AccountHealth(health, null, null, NOW),
                Mode.TEST,
                NOW,
                null,
                NOW,
                NOW,
                null);
        TikTokPublishingOptions options = platform == Platform.TIKTOK && creator == null
                ? new TikTokPublishingOptions(
                        "Creator", "creator", null, List.of("SELF_ONLY"), false, false, false, 600)
                : creator;
        accounts.put(id, new AccountForPosting(account, options, reconnectUrl));
        return id;
    }

    private static List<Post.Media> items(int count, String type) {
        return IntStream.range(0, count)
                .mapToObj(i -> new Post.Media("https://cdn.example.com/" + i, type))
                .toList();
    }

    private static List<Post.Media> items(String... types) {
        List<Post.Media> items = new ArrayList<>();
        for (String type : types) {
            items.add(new Post.Media("https://cdn.example.com/" + items.size(), type));
        }
        return items;
    }

    private PostRules.Checked check(String text, List<Post.Media> media, String options, Post.FirstComment comment) {
        return check(text, media, options, comment, new ArrayList<>(accounts.keySet()));
    }

    private PostRules.Checked check(
            String text, List<Post.Media> media, String options, Post.FirstComment comment, List<String> ids) {
        try {
            PostDraft draft = new PostDraft(
                    text,
                    ids,
                    media == null ? null : media.size() == 1 ? PostMedia.single(media.get(0)) : PostMedia.listed(media),
                    null,
                    (ObjectNode) JSON.readTree(options == null ? "{}" : options),
                    comment,
                    List.of());
            return PostRules.check(draft, accounts, NOW);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> fieldsAndCodes(PostRules.Checked checked) {
        return checked.problems().refusals().stream()
                .map(problem -> problem.field() + " " + problem.code())
                .toList();
    }

    private static final String INSTAGRAM_REEL = "{\"instagram\":{\"format\":\"reel\"}}";
    private static final String INSTAGRAM_STORY = "{\"instagram\":{\"format\":\"story\"}}";

    @Test
    void anInstagramFeedPostIsOneItemOrACarouselOfTwoToTenImagesAndVideos() {
        account(Platform.INSTAGRAM);
        assertThat(fieldsAndCodes(check("Hi", items(1, "video"), null, null))).isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items("image", "video", "image"), null, null)))
                .isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(10, "image"), null, null))).isEmpty();
        PostRules.Checked eleven = check("Hi", items(11, "image"), null, null);
        assertThat(fieldsAndCodes(eleven)).containsExactly("media too_long");
        assertThat(eleven.problems().refusals().get(0).message())
                .contains("2 to 10")
                .contains("11 items");
        assertThat(fieldsAndCodes(check("Hi", null, null, null))).containsExactly("media required");
    }

    @Test
    void anInstagramReelIsExactlyOneVideo() {
        account(Platform.INSTAGRAM);
        assertThat(fieldsAndCodes(check("Hi", items(1, "video"), INSTAGRAM_REEL, null)))
                .isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(1, "image"), INSTAGRAM_REEL, null)))
                .containsExactly("media.type invalid_value");
        assertThat(fieldsAndCodes(check("Hi", items(2, "video"), INSTAGRAM_REEL, null)))
                .containsExactly("media too_long");
    }

    @Test
    void anInstagramStoryIsOneImageOrVideoAndTakesNoFirstComment() {
        account(Platform.INSTAGRAM);
        assertThat(fieldsAndCodes(check("", items(1, "image"), INSTAGRAM_STORY, null)))
                .isEmpty();
        assertThat(fieldsAndCodes(check("", items(2, "image"), INSTAGRAM_STORY, null)))
                .containsExactly("media too_long");
        assertThat(fieldsAndCodes(check("", items(1, "image"), INSTAGRAM_STORY, new Post.FirstComment("First!"))))
                .containsExactly("first_comment not_supported");
        assertThat(fieldsAndCodes(check(
                        "", items(1, "video"), "{\"instagram\":{\"format\":\"story\",\"share_to_feed\":true}}", null)))
                .containsExactly("platform_options.instagram.share_to_feed invalid_value");
    }

    @Test
    void aFormatThatIsNoneOfFeedReelOrStoryIsRefused() {
        account(Platform.FACEBOOK);
        assertThat(fieldsAndCodes(check("Hi", null, "{\"facebook\":{\"format\":\"short\"}}", null)))
                .containsExactly("platform_options.facebook.format invalid_value");
        assertThat(fieldsAndCodes(check("Hi", null, "{\"linkedin\":{\"format\":\"reel\"}}", null)))
                .containsExactly("platform_options.linkedin.format unknown_field");
    }

    @Test
    void aFacebookPostIsTextOneVideoOrUpToTenImagesNeverBoth() {
        account(Platform.FACEBOOK);
        assertThat(fieldsAndCodes(check("Hi", null, null, null))).isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(1, "video"), null, null))).isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(10, "image"), null, null))).isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(11, "image"), null, null))).containsExactly("media too_long");
        assertThat(fieldsAndCodes(check("Hi", items("image", "video"), null, null)))
                .containsExactly("media[1].type invalid_value");
    }

    @Test
    void aFacebookReelIsOneVideoAndAStoryOneItem() {
        account(Platform.FACEBOOK);
        String reel = "{\"facebook\":{\"format\":\"reel\"}}";
        assertThat(fieldsAndCodes(check("Hi", null, reel, null))).containsExactly("media required");
        assertThat(fieldsAndCodes(check("Hi", items(1, "image"), reel, null)))
                .containsExactly("media.type invalid_value");
        assertThat(fieldsAndCodes(check("Hi", items(1, "image"), "{\"facebook\":{\"format\":\"story\"}}", null)))
                .isEmpty();
    }

    @Test
    void aLinkedInPostIsOneVideoOrOneToTwentyImages() {
        account(Platform.LINKEDIN);
        assertThat(fieldsAndCodes(check("Hi", items(20, "image"), null, null))).isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(21, "image"), null, null))).containsExactly("media too_long");
        assertThat(fieldsAndCodes(check("Hi", items("video", "image"), null, null)))
                .containsExactly("media[0].type invalid_value");
    }

    @Test
    void aDocumentIsLinkedInsAloneAndAloneInItsPostWithATitleOfAtMost400() {
        account(Platform.LINKEDIN);
        String titled = "{\"linkedin\":{\"title\":\"%s\"}}";
        assertThat(fieldsAndCodes(check("Hi", items(1, "document"), titled.formatted("Q3 report"), null)))
                .isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(1, "document"), titled.formatted("t".repeat(401)), null)))
                .containsExactly("platform_options.linkedin.title too_long");
        assertThat(fieldsAndCodes(check("Hi", items("document", "image"), null, null)))
                .containsExactly("media[0].type invalid_value");
        assertThat(fieldsAndCodes(check("Hi", items("document", "document"), null, null)))
                .containsExactly("media[0].type invalid_value", "media[1].type invalid_value");
    }

    @Test
    void everyPlatformButLinkedInRefusesADocumentNamingItself() {
        String options = "{\"youtube\":{\"privacy_status\":\"public\",\"made_for_kids\":false},"
                + "\"tiktok\":{\"privacy_level\":\"SELF_ONLY\"},\"pinterest\":{\"board_id\":\"123\"}}";
        for (Platform platform : Platform.values()) {
            accounts.clear();
            account(platform);
            PostRules.Checked checked = check("Hi", items(1, "document"), options, null);
            if (platform == Platform.LINKEDIN) {
                assertThat(fieldsAndCodes(checked)).as("linkedin").isEmpty();
            } else {
                assertThat(fieldsAndCodes(checked)).as(platform.name()).containsExactly("media.type invalid_value");
                assertThat(checked.problems().refusals().get(0).message())
                        .startsWith(platform.displayName())
                        .endsWith("media is a document.");
            }
        }
    }

    @Test
    void aPinterestPinIsOneImageOneVideoOrACarouselOfTwoToFiveImages() {
        account(Platform.PINTEREST);
        String board = "{\"pinterest\":{\"board_id\":\"123\"}}";
        assertThat(fieldsAndCodes(check("Hi", items(1, "video"), board, null))).isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(5, "image"), board, null))).isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(6, "image"), board, null))).containsExactly("media too_long");
        assertThat(fieldsAndCodes(check("Hi", items("image", "video"), board, null)))
                .containsExactly("media[1].type invalid_value");
    }

    @Test
    void aTikTokPostIsOneVideoOrAPhotoPostOfUpToThirtyFiveImagesWithoutAVideo() {
        account(Platform.TIKTOK);
        String privacy = "{\"tiktok\":{\"privacy_level\":\"SELF_ONLY\"}}";
        assertThat(fieldsAndCodes(check("Hi", items(1, "video"), privacy, null)))
                .isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(35, "image"), privacy, null)))
                .isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items("image", "image", "video"), privacy, null)))
                .containsExactly("media[2].type invalid_value");
    }

    @Test
    void aTikTokPhotoPostsTitleMusicAndCoverAreItsOptionsAndTheCoverIsOneOfItsPhotos() {
        account(Platform.TIKTOK);
        String photoOptions = "{\"tiktok\":{\"privacy_level\":\"SELF_ONLY\",\"title\":\"Our week\","
                + "\"auto_add_music\":true,\"photo_cover_index\":%s}}";
        assertThat(fieldsAndCodes(check("Hi", items(3, "image"), photoOptions.formatted("2"), null)))
                .isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(3, "image"), photoOptions.formatted("3"), null)))
                .containsExactly("platform_options.tiktok.photo_cover_index invalid_value");
        assertThat(fieldsAndCodes(check("Hi", items(3, "image"), photoOptions.formatted("\"first\""), null)))
                .containsExactly("platform_options.tiktok.photo_cover_index invalid_type");
        String longTitle = "{\"tiktok\":{\"privacy_level\":\"SELF_ONLY\",\"title\":\"" + "t".repeat(91) + "\"}}";
        assertThat(fieldsAndCodes(check("Hi", items(1, "image"), longTitle, null)))
                .containsExactly("platform_options.tiktok.title too_long");
    }

    @Test
    void aYouTubePostIsExactlyOneVideo() {
        account(Platform.YOUTUBE);
        String options = "{\"youtube\":{\"privacy_status\":\"public\",\"made_for_kids\":false}}";
        assertThat(fieldsAndCodes(check("Hi", items(1, "video"), options, null)))
                .isEmpty();
        assertThat(fieldsAndCodes(check("Hi", items(1, "image"), options, null)))
                .containsExactly("media.type invalid_value");
        assertThat(fieldsAndCodes(check("Hi", items(2, "video"), options, null)))
                .containsExactly("media too_long");
    }

    @Test
    void aFirstCommentForTikTokOrPinterestIsRefusedNamingTheFieldThatGaveIt() {
        account(Platform.TIKTOK);
        account(Platform.PINTEREST);
        String options = "{\"tiktok\":{\"privacy_level\":\"SELF_ONLY\"},\"pinterest\":{\"board_id\":\"1\","
                + "\"first_comment\":{\"text\":\"Pin it\"}}}";
        PostRules.Checked checked = check("Hi", items(1, "image"), options, new Post.FirstComment("First!"));
        assertThat(fieldsAndCodes(checked))
                .containsExactly(
                        "first_comment not_supported", "platform_options.pinterest.first_comment not_supported");
    }

    @Test
    void aPlatformsOwnFirstCommentOverridesThePostsAndMeetsThatPlatformsCommentLimit() throws Exception {
        account(Platform.LINKEDIN);
        account(Platform.FACEBOOK);
        String longForLinkedIn = "{\"linkedin\":{\"first_comment\":{\"text\":\"" + "c".repeat(1251) + "\"}}}";
        assertThat(fieldsAndCodes(check("Hi", null, longForLinkedIn, new Post.FirstComment("Short"))))
                .containsExactly("platform_options.linkedin.first_comment.text too_long");
        assertThat(fieldsAndCodes(check("Hi", null, null, new Post.FirstComment("c".repeat(1251)))))
                .containsExactly("first_comment.text too_long");
        assertThat(fieldsAndCodes(check("Hi", null, "{\"linkedin\":{\"first_comment\":{\"txt\":\"x\"}}}", null)))
                .containsExactly(
                        "platform_options.linkedin.first_comment.txt unknown_field",
                        "platform_options.linkedin.first_comment.text required");
        // Only LinkedIn's own: Facebook's target gets no comment.
        String linkedInOnly = "{\"linkedin\":{\"first_comment\":{\"text\":\"Link in comments\"}}}";
        assertThat(fieldsAndCodes(check("Hi", null, linkedInOnly, null))).isEmpty();
        assertThat(FirstComments.textFor(Platform.LINKEDIN, null, JSON.readTree(linkedInOnly)))
                .isEqualTo("Link in comments");
        assertThat(FirstComments.textFor(Platform.FACEBOOK, null, JSON.readTree(linkedInOnly)))
                .isNull();
    }

    @Test
    void anInstagramCaptionHoldsAtMostThirtyHashtagsAndTwentyMentions() {
        account(Platform.INSTAGRAM);
        String thirty = String.join(" ", Collections.nCopies(30, "#tag")) + " mail@example.com a#b &#35;";
        assertThat(fieldsAndCodes(check(thirty, items(1, "image"), null, null))).isEmpty();
        PostRules.Checked over = check(
                thirty + " #one " + String.join(" ", Collections.nCopies(21, "@friend")),
                items(1, "image"),
                null,
                null);
        assertThat(fieldsAndCodes(over)).containsExactly("text too_many_hashtags", "text too_many_mentions");
        assertThat(over.problems().refusals().get(0).message()).contains("31 hashtags");
    }

    @Test
    void eachProblemIsFiledUnderTheTargetItConcernsAndSharedOnesAreListedOnce() {
        String open = account(Platform.TIKTOK);
        String strict = account(
                Platform.TIKTOK,
                AccountHealth.HEALTHY,
                null,
                new TikTokPublishingOptions(
                        "Strict", "strict", null, List.of("FOLLOWER_OF_CREATOR"), true, false, false, 60));
        String linkedIn = account(Platform.LINKEDIN);
        String unknown = "acc_" + "f".repeat(24);
        List<String> ids = List.of(open, strict, linkedIn, unknown);
        PostRules.Checked checked = check(
                "x".repeat(2300),
                items(1, "video"),
                "{\"tiktok\":{\"privacy_level\":\"SELF_ONLY\",\"disable_comment\":false},\"youtube\":{\"title\":\"<b>\"}}",
                null,
                ids);
        PostValidation validation = checked.problems().validation();
        assertThat(validation.valid()).isFalse();
        assertThat(validation.problems())
                .extracting(FieldError::field)
                .containsExactly("platform_options.youtube.title");
        assertThat(validation.targets())
                .extracting(PostValidation.TargetProblems::accountId)
                .containsExactly(open, strict, linkedIn, unknown);
        assertThat(validation.targets().get(0).problems())
                .extracting(FieldError::field)
                .containsExactly("text");
        assertThat(validation.targets().get(1).problems())
                .extracting(FieldError::field)
                .containsExactly(
                        "text", "platform_options.tiktok.privacy_level", "platform_options.tiktok.disable_comment");
        assertThat(validation.targets().get(2).problems()).isEmpty();
        assertThat(validation.targets().get(3).platform()).isNull();
        assertThat(validation.targets().get(3).problems())
                .extracting(FieldError::field, FieldError::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("account_ids[3]", "invalid_value"));
        // The caption both TikTok targets share is one refusal.
        assertThat(checked.problems().refusals().stream().filter(p -> p.field().equals("text")))
                .hasSize(1);
    }

    @Test
    void eachTargetListsAtMostAHundredProblemsHoweverManyTheBodyHolds() {
        account(Platform.TIKTOK);
        account(Platform.TIKTOK);
        StringBuilder options = new StringBuilder("{\"tiktok\":{\"privacy_level\":\"SELF_ONLY\"");
        for (int i = 0; i < 150; i++) {
            options.append(",\"unknown_").append(i).append("\":1");
        }
        PostRules.Checked checked =
                check("Hi", items(1, "video"), options.append("}}").toString(), null);
        PostValidation validation = checked.problems().validation();
        assertThat(validation.valid()).isFalse();
        assertThat(validation.targets())
                .allSatisfy(target -> assertThat(target.problems()).hasSize(100));
        assertThat(checked.problems().refusals()).hasSize(150);
    }

    @Test
    void anAccountToReconnectIsItsTargetsProblemWithTheLinkButNotAFieldToFix() {
        String broken = account(
                Platform.LINKEDIN, AccountHealth.REAUTH_REQUIRED, "https://herald.example/connect/reconnect/t1", null);
        PostRules.Checked checked = check("Hi", null, null, null);
        PostValidation validation = checked.problems().validation();
        assertThat(validation.valid()).isFalse();
        FieldError problem = validation.targets().get(0).problems().get(0);
        assertThat(problem.field()).isEqualTo("account_ids[0]");
        assertThat(problem.code()).isEqualTo("account_reauth_required");
        assertThat(problem.message()).contains(broken).contains("https://herald.example/connect/reconnect/t1");
        assertThat(checked.problems().refusals()).isEmpty();
    }

    @Test
    void aValidPostHasNoProblemsAndItsCommentablePlatformsGetTheComment() {
        account(Platform.FACEBOOK);
        account(Platform.INSTAGRAM);
        account(Platform.YOUTUBE);
        PostRules.Checked checked = check(
                "Hi #launch @team",
                items(1, "video"),
                "{\"youtube\":{\"privacy_status\":\"public\",\"made_for_kids\":false},\"instagram\":{\"format\":\"reel\"}}",
                new Post.FirstComment("Link in bio"));
        assertThat(checked.problems().validation().valid()).isTrue();
        assertThat(checked.problems().validation().targets())
                .allSatisfy(t -> assertThat(t.problems()).isEmpty());
        // What the media probe judges each target's media by: Instagram's reel, the others' feed.
        assertThat(checked.formats())
                .containsEntry(Platform.INSTAGRAM, PostFormat.REEL)
                .containsEntry(Platform.FACEBOOK, PostFormat.FEED)
                .containsEntry(Platform.YOUTUBE, PostFormat.FEED);
    }
}
