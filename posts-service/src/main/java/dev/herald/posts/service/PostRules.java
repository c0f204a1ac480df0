package dev.herald.posts.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The rules of a post that depend on its accounts and on the clock: every account in the caller's workspace and mode,
 * each platform's caption limits ({@link CaptionRules}), media count and types per format ({@link PlatformMediaRules}),
 * options ({@link PlatformOptionRules}: required choices, allowed values, TikTok's creator controls) and first comment
 * ({@link FirstComments}), each account's health, and the scheduling window. Each problem is filed where it belongs
 * ({@link PostProblems}): a platform's under each of its targets, an account's under its own.
 */
final class PostRules {
    static final Duration MIN_SCHEDULE_AHEAD = Duration.ofSeconds(5);
    static final Duration MAX_SCHEDULE_AHEAD = Duration.ofDays(365);

    private PostRules() {}

    /**
     * What the rules found: the lookup's accounts by id, the accounts to publish to in request order (broken ones included: they are refused
     * separately), each targeted platform's format, and every problem; for a next_slot post, its slot as found
     * ({@link NextSlots}; null otherwise).
     */
    record Checked(
            Map<String, AccountForPosting> found,
            List<AccountForPosting> destinations,
            Map<Platform, PostFormat> formats,
            PostProblems problems,
            NextSlots.Choice slot) {

        /** With the next_slot post's slot, whose problem (if any) is the post's. */
        Checked withSlot(NextSlots.Choice choice) {
            if (choice.problem() != null) {
                problems.ofPost(choice.problem());
            }
            return new Checked(found, destinations, formats, problems, choice);
        }
    }

    /** Checks the draft against its accounts ({@code found}: the lookup's answer by id). */
    static Checked check(PostDraft draft, Map<String, AccountForPosting> found, Instant now) {
        PostProblems problems = new PostProblems();
        problems.ofPost(draft.errors());
        List<AccountForPosting> destinations = new ArrayList<>();
        Map<String, Integer> positions = new LinkedHashMap<>();
        for (int i = 0; i < draft.accountIds().size(); i++) {
            String id = draft.accountIds().get(i);
            if (id == null) {
                continue;
            }
            AccountForPosting account = found.get(id);
            if (account == null) {
                problems.target(id, null);
                problems.ofTarget(
                        id,
                        new FieldError(
                                "account_ids[" + i + "]",
                                "invalid_value",
                                "No account " + id + " exists in this workspace and mode."));
            } else {
                // A broken account is still checked as a target, so every field error comes out in this one answer.
                problems.target(id, account.account().platform());
                destinations.add(account);
                positions.put(id, i);
            }
        }
        schedule(draft.scheduledAt(), now).ifPresent(problems::ofPost);
        problems.ofPost(
                RepeatRules.check(draft.repeat(), draft.scheduledAt() == null ? now : draft.scheduledAt(), now));
        if (draft.text() != null && draft.text().isBlank() && !draft.mediaGiven()) {
            problems.ofPost(new FieldError("text", "too_short", "text must not be empty when the post has no media."));
        }
        Set<Platform> targeted = EnumSet.noneOf(Platform.class);
        destinations.forEach(account -> targeted.add(account.account().platform()));
        Map<Platform, JsonNode> options = options(draft, problems);
        Map<Platform, List<FieldError>> platformProblems = new EnumMap<>(Platform.class);
        Map<Platform, PlatformOptionRules> optionRules = new EnumMap<>(Platform.class);
        Map<Platform, PostFormat> formats = new EnumMap<>(Platform.class);
        for (Platform platform : Platform.values()) {
            if (!targeted.contains(platform) && !options.containsKey(platform)) {
                continue;
            }
            List<FieldError> optionProblems = new ArrayList<>();
            PlatformOptionRules rules = new PlatformOptionRules(
                            platform, options.get(platform), targeted.contains(platform), optionProblems)
                    .check();
            if (!targeted.contains(platform)) {
                // Options for a platform the post does not go to are checked for shape only, and are the post's.
                problems.ofPost(optionProblems);
                continue;
            }
            List<FieldError> platformOwn = ofPlatform(draft, platform, rules, optionProblems);
            if (rules.format() != null) {
                formats.put(platform, rules.format());
            }
            platformProblems.put(platform, platformOwn);
            optionRules.put(platform, rules);
        }
        for (AccountForPosting account : destinations) {
            String id = account.account().id();
            Platform platform = account.account().platform();
            platformProblems.get(platform).forEach(problem -> problems.ofTarget(id, problem));
            optionRules.get(platform).creatorProblems(account).forEach(problem -> problems.ofTarget(id, problem));
            if (broken(account.account())) {
                problems.ofTarget(id, needsReconnecting(account, positions.get(id)));
            }
        }
        return new Checked(found, destinations, formats, problems, null);
    }

    /**
     * A targeted platform's problems, which each of its targets has: its caption limits, its media rules for the format
     * chosen, its options' problems, its first comment.
     */
    private static List<FieldError> ofPlatform(
            PostDraft draft, Platform platform, PlatformOptionRules rules, List<FieldError> optionProblems) {
        List<FieldError> problems = new ArrayList<>();
        if (draft.text() != null) {
            problems.addAll(CaptionRules.check(draft.text(), platform));
        }
        if (rules.format() != null) {
            problems.addAll(
                    PlatformMediaRules.of(platform, rules.format()).check(draft, what(platform, rules.format())));
        }
        problems.addAll(optionProblems);
        Integer cover = rules.photoCoverIndex();
        int photos = draft.media() == null ? 0 : draft.media().size();
        if (cover != null && cover >= photos) {
            String field = "platform_options." + platform.wireName() + ".photo_cover_index";
            problems.add(new FieldError(
                    field,
                    "invalid_value",
                    field + " is " + cover + "; the post has " + photos + " media items (the first is 0)."));
        }
        firstComment(draft, platform, rules, problems);
        return problems;
    }

    /** "Instagram reels", "LinkedIn posts": what a platform's media rules speak of. */
    private static String what(Platform platform, PostFormat format) {
        return platform.displayName() + " "
                + switch (format) {
                    case FEED -> "posts";
                    case REEL -> "reels";
                    case STORY -> "stories";
                };
    }

    /**
     * The first comment a platform's targets get: the platform's own ({@code platform_options.<platform>
     * .first_comment}) or else the post's. A platform without a comment API, or a story (which takes no comments), is
     * refused one naming the field that gave it. (Which targets get which comment is {@link FirstComments#textFor}.)
     */
    private static void firstComment(
            PostDraft draft, Platform platform, PlatformOptionRules rules, List<FieldError> problems) {
        Post.FirstComment comment;
        String field;
        if (rules.firstCommentGiven()) {
            comment = rules.firstComment(); // null when malformed or refused, each with its problem already
            field = "platform_options." + platform.wireName() + ".first_comment";
        } else {
            comment = draft.firstComment();
            field = "first_comment";
            if (comment != null && !FirstCommentRules.LIMITS.containsKey(platform)) {
                problems.add(new FieldError(
                        field,
                        "not_supported",
                        platform.displayName() + " has no API to post a first comment; give the comment per platform"
                                + " instead, in platform_options.<platform>.first_comment of the platforms that take"
                                + " one."));
                return;
            }
        }
        if (comment == null) {
            return;
        }
        if (rules.format() == PostFormat.STORY) {
            problems.add(new FieldError(
                    field,
                    "not_supported",
                    platform.displayName()
                            + " stories take no comments; a first comment needs a feed post or a reel."));
            return;
        }
        int limit = FirstCommentRules.LIMITS.get(platform);
        int length = FirstCommentRules.length(comment.text());
        if (length > limit) {
            problems.add(new FieldError(
                    field + ".text",
                    "too_long",
                    field + ".text is " + length + " characters; " + platform.displayName()
                            + " takes comments of at most " + limit + "."));
        }
    }

    /** An account that cannot be published to until it is reconnected, as its target's problem. */
    private static FieldError needsReconnecting(AccountForPosting account, int position) {
        String id = account.account().id();
        String status =
                account.account().health() != null ? account.account().health().status() : AccountHealth.DISCONNECTED;
        return new FieldError(
                "account_ids[" + position + "]",
                PostProblems.ACCOUNT_REAUTH_REQUIRED,
                "Account " + id + " is " + status + " and must be reconnected before posting to it; "
                        + (account.reconnectUrl() != null
                                ? "reconnect it at " + account.reconnectUrl() + "."
                                : "POST /accounts/" + id + "/reconnect-link gives a link that reconnects it."));
    }

    /**
     * The refusal of a post whose accounts pass every field rule but one of which cannot be published to until it is
     * reconnected ({@code reauth_required} or {@code disconnected}): {@code 422 account_reauth_required} naming the
     * first such account in request order, with its health status and the link that reconnects it (accounts-service
     * puts one on every broken account); null when there is none.
     * Asked only once the request has no field error: those need the caller's own fix whatever the account's state,
     * and a caller who reconnects first and then learns the request was wrong anyway has been sent round twice.
     */
    static ApiException reauthRequired(PostDraft draft, Map<String, AccountForPosting> found) {
        for (int i = 0; i < draft.accountIds().size(); i++) {
            AccountForPosting account = found.get(draft.accountIds().get(i));
            if (account == null || !broken(account.account())) {
                continue;
            }
            String id = account.account().id();
            AccountHealth health = account.account().health() != null
                    ? account.account().health()
                    : new AccountHealth(AccountHealth.DISCONNECTED, null, null, null);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("account_id", id);
            details.put("field", "account_ids[" + i + "]");
            details.put("health", health.status());
            details.put("reconnect_url", account.reconnectUrl());
            return new ApiException(
                    ErrorCode.ACCOUNT_REAUTH_REQUIRED,
                    "Account " + id + " is " + health.status()
                            + " and must be reconnected before posting to it; reconnect_url reconnects it.",
                    details);
        }
        return null;
    }

    /** Whether nothing can be published to the account until it is reconnected. */
    private static boolean broken(Account account) {
        return !Account.CONNECTED.equals(account.status())
                || account.health() != null && account.health().broken();
    }

    private static Optional<FieldError> schedule(Instant scheduledAt, Instant now) {
        if (scheduledAt == null) {
            return Optional.empty();
        }
        if (scheduledAt.isBefore(now.plus(MIN_SCHEDULE_AHEAD))) {
            return Optional.of(new FieldError(
                    "scheduled_at",
                    "invalid_value",
                    "scheduled_at must be at least 5 seconds in the future; omit it to publish now."));
        } else if (scheduledAt.isAfter(now.plus(MAX_SCHEDULE_AHEAD))) {
            return Optional.of(
                    new FieldError("scheduled_at", "invalid_value", "scheduled_at must be at most 1 year ahead."));
        }
        return Optional.empty();
    }

    /** Each platform's options object, by platform; a key that is no platform, or no object, is the post's problem. */
    private static Map<Platform, JsonNode> options(PostDraft draft, PostProblems problems) {
        Map<Platform, JsonNode> given = new EnumMap<>(Platform.class);
        for (Iterator<Map.Entry<String, JsonNode>> fields =
                        draft.platformOptions().fields();
                fields.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = fields.next();
            String field = "platform_options." + entry.getKey();
            Platform platform = Platform.fromWire(entry.getKey()).orElse(null);
            if (platform == null) {
                problems.ofPost(new FieldError(field, "unknown_field", entry.getKey() + " is not a platform."));
            } else if (!entry.getValue().isObject()) {
                problems.ofPost(new FieldError(field, "invalid_type", field + " must be an object."));
            } else {
                given.put(platform, entry.getValue());
            }
        }
        return given;
    }
}
