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
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules of a post that depend on its accounts and on the clock: every account in the caller's workspace and
 * mode, each platform's caption limit and media needs, each platform's options (required choices, allowed values,
 * TikTok's creator controls: {@link PlatformOptionRules}), and the scheduling window; then every account fit to
 * publish to ({@link #reauthRequired}).
 */
final class PostRules {
    static final Duration MIN_SCHEDULE_AHEAD = Duration.ofSeconds(5);
    static final Duration MAX_SCHEDULE_AHEAD = Duration.ofDays(365);
    /** Each platform's own caption limit, in characters (Facebook's 63,206 is above the API's 5,000). */
    static final Map<Platform, Integer> CAPTION_LIMITS = Map.of(
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

    private final List<FieldError> errors = new ArrayList<>();

    private PostRules() {}

    /**
     * Checks the draft against its accounts ({@code found}: the lookup's answer by id) and returns the targets'
     * accounts in request order, with every problem added to {@code errors}.
     */
    static List<AccountForPosting> check(
            PostDraft draft, Map<String, AccountForPosting> found, Instant now, List<FieldError> errors) {
        PostRules rules = new PostRules();
        List<AccountForPosting> targets = rules.accounts(draft, found);
        rules.schedule(draft.scheduledAt(), now);
        Map<Platform, List<AccountForPosting>> byPlatform = new EnumMap<>(Platform.class);
        targets.forEach(target -> byPlatform
                .computeIfAbsent(target.account().platform(), p -> new ArrayList<>())
                .add(target));
        if (draft.text() != null) {
            rules.caption(draft.text(), byPlatform.keySet());
            if (draft.text().isBlank() && !draft.mediaGiven()) {
                rules.reject("text", "too_short", "text must not be empty when the post has no media.");
            }
        }
        rules.media(draft, byPlatform.keySet());
        rules.options(draft, byPlatform);
        errors.addAll(rules.errors);
        return targets;
    }

    private List<AccountForPosting> accounts(PostDraft draft, Map<String, AccountForPosting> found) {
        List<AccountForPosting> targets = new ArrayList<>();
        for (int i = 0; i < draft.accountIds().size(); i++) {
            String id = draft.accountIds().get(i);
            if (id == null) {
                continue;
            }
            String field = "account_ids[" + i + "]";
            AccountForPosting account = found.get(id);
            if (account == null) {
                reject(field, "invalid_value", "No account " + id + " exists in this workspace and mode.");
            } else {
                // A broken account is still checked as a target, so every field error comes out in this one answer.
                targets.add(account);
            }
        }
        return targets;
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

    private void schedule(Instant scheduledAt, Instant now) {
        if (scheduledAt == null) {
            return;
        }
        if (scheduledAt.isBefore(now.plus(MIN_SCHEDULE_AHEAD))) {
            reject(
                    "scheduled_at",
                    "invalid_value",
                    "scheduled_at must be at least 5 seconds in the future; omit it to publish now.");
        } else if (scheduledAt.isAfter(now.plus(MAX_SCHEDULE_AHEAD))) {
            reject("scheduled_at", "invalid_value", "scheduled_at must be at most 1 year ahead.");
        }
    }

    private void caption(String text, Set<Platform> platforms) {
        int length = text.codePointCount(0, text.length());
        for (Platform platform : platforms) {
            int limit = CAPTION_LIMITS.get(platform);
            if (length > limit) {
                reject(
                        "text",
                        "too_long",
                        "text is " + length + " characters; " + platform.displayName() + " allows at most " + limit
                                + ".");
            }
        }
    }

    private void media(PostDraft draft, Set<Platform> platforms) {
        boolean mediaGiven = draft.mediaGiven();
        for (Platform platform : platforms) {
            switch (platform) {
                case TIKTOK, YOUTUBE, INSTAGRAM, PINTEREST -> {
                    if (!mediaGiven) {
                        reject(
                                "media",
                                "required",
                                platform.displayName() + " posts need media (a video or an image).");
                        mediaGiven = true;
                    }
                }
                default -> {}
            }
        }
        if (draft.media() != null && platforms.contains(Platform.YOUTUBE)) {
            for (int i = 0; i < draft.media().size(); i++) {
                if (!Post.Media.VIDEO.equals(draft.media().items().get(i).type())) {
                    reject(draft.mediaField(i) + ".type", "invalid_value", "YouTube posts need a video.");
                }
            }
        }
    }

    private void options(PostDraft draft, Map<Platform, List<AccountForPosting>> byPlatform) {
        Map<Platform, JsonNode> given = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields =
                        draft.platformOptions().fields();
                fields.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = fields.next();
            String field = "platform_options." + entry.getKey();
            Platform platform = Platform.fromWire(entry.getKey()).orElse(null);
            if (platform == null) {
                reject(field, "unknown_field", entry.getKey() + " is not a platform.");
            } else if (!entry.getValue().isObject()) {
                reject(field, "invalid_type", field + " must be an object.");
            } else {
                given.put(platform, entry.getValue());
            }
        }
        for (Platform platform : Platform.values()) {
            JsonNode options = given.get(platform);
            List<AccountForPosting> accounts = byPlatform.getOrDefault(platform, List.of());
            if (options == null && accounts.isEmpty()) {
                continue;
            }
            new PlatformOptionRules(platform, options, !accounts.isEmpty(), errors).check(accounts);
        }
    }

    private void reject(String field, String code, String message) {
        errors.add(new FieldError(field, code, message));
    }
}
