package dev.herald.posts.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.FieldError;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostValidation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every problem found with a post, where it belongs: the post as a whole (its shape, its schedule, options of a
 * platform it does not target) or one target (its platform's limits and options, its account). Targets are kept in
 * request order, one per account named. {@code POST /posts/validate} answers {@link #validation()}; {@code POST /posts}
 * refuses with {@link #refusals()} and the same per-target breakdown.
 */
public final class PostProblems {
    /** The code of a target whose account must be reconnected first: not the caller's field to fix. */
    public static final String ACCOUNT_REAUTH_REQUIRED = "account_reauth_required";

    private final List<FieldError> post = new ArrayList<>();
    private final Map<String, Target> targets = new LinkedHashMap<>();

    private record Target(Platform platform, List<FieldError> problems) {}

    void ofPost(FieldError problem) {
        post.add(problem);
    }

    void ofPost(List<FieldError> problems) {
        post.addAll(problems);
    }

    /** Adds the target for {@code accountId} ({@code platform} null: no such account), once, in request order. */
    void target(String accountId, Platform platform) {
        targets.putIfAbsent(accountId, new Target(platform, new ArrayList<>()));
    }

    /** Adds a problem to a target already added; the media probe adds what it finds per account here. */
    public void ofTarget(String accountId, FieldError problem) {
        Target target = targets.get(accountId);
        if (target == null) {
            throw new IllegalArgumentException("no target " + accountId);
        }
        target.problems().add(problem);
    }

    /** Whether nothing at all was found. */
    public boolean none() {
        return post.isEmpty()
                && targets.values().stream().allMatch(t -> t.problems().isEmpty());
    }

    /**
     * Every distinct problem that is the caller's to fix, the post's first and then each target's in request order: a
     * problem several targets share (a caption too long for two TikTok accounts) is listed once. An account that must
     * be reconnected is left out: {@code POST /posts} refuses that with its own error once nothing else is wrong.
     */
    public List<FieldError> refusals() {
        Set<FieldError> distinct = new LinkedHashSet<>(post);
        targets.values()
                .forEach(target -> target.problems().stream()
                        .filter(problem -> !ACCOUNT_REAUTH_REQUIRED.equals(problem.code()))
                        .forEach(distinct::add));
        return List.copyOf(distinct);
    }

    /** The answer of {@code POST /posts/validate}. */
    public PostValidation validation() {
        return new PostValidation(none(), listed(post), targets());
    }

    /** Each target's problems, in request order. */
    public List<PostValidation.TargetProblems> targets() {
        return targets.entrySet().stream()
                .map(entry -> new PostValidation.TargetProblems(
                        entry.getKey(),
                        entry.getValue().platform(),
                        listed(entry.getValue().problems())))
                .toList();
    }

    /**
     * The first {@link ApiException#MAX_LISTED_ERRORS} of a list. A platform's problems are repeated under each of its
     * up to 100 targets, so a body with thousands of bad option fields would otherwise be answered a hundred times
     * over (as {@code details.errors}, the answer stays bounded; those listed are enough to start fixing).
     */
    private static List<FieldError> listed(List<FieldError> problems) {
        return List.copyOf(problems.subList(0, Math.min(problems.size(), ApiException.MAX_LISTED_ERRORS)));
    }
}
