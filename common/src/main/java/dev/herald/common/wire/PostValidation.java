package dev.herald.common.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.herald.common.api.FieldError;
import java.time.Instant;
import java.util.List;

/**
 * The answer of {@code POST /posts/validate}: whether {@code POST /posts} would accept the same body now and what
 * each target's platform would refuse. {@code problems} holds what concerns the post as a whole (its shape, its
 * schedule); {@code targets} one entry per account named, in request order, with the problems that concern that
 * target: its platform's limits and options, its media as probed, its account's health. A problem has the shape of a
 * {@code 422}'s field error, and {@code POST /posts} refuses with the same ones. {@code scheduledAt} is present for a
 * body with {@code "scheduled_at": "next_slot"} that has a free slot: the one {@code POST /posts} would take now (a
 * dry run claims nothing, so another post may take it first).
 */
public record PostValidation(
        boolean valid,
        List<FieldError> problems,
        List<TargetProblems> targets,
        @JsonInclude(JsonInclude.Include.NON_NULL) Instant scheduledAt) {

    public PostValidation(boolean valid, List<FieldError> problems, List<TargetProblems> targets) {
        this(valid, problems, targets, null);
    }

    /** One account's problems; {@code platform} is null when the account does not exist in this workspace and mode. */
    public record TargetProblems(String accountId, Platform platform, List<FieldError> problems) {}
}
