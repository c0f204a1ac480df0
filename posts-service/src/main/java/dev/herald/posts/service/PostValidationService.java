package dev.herald.posts.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.client.AccountsClient;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.PostValidation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks a post against every rule acceptance applies, for {@code POST /posts} (which refuses with what is found) and
 * {@code POST /posts/validate} (a dry run that answers it, creating and reserving nothing). {@link #check} is the one
 * place both go through: a check that needs more than the accounts (the media probe, per target) adds its problems
 * to the rules' there, before either answers.
 */
@ApplicationScoped
public class PostValidationService {
    private final AccountsClient accounts;
    private final Clock clock;

    public PostValidationService(AccountsClient accounts, Clock clock) {
        this.accounts = accounts;
        this.clock = clock;
    }

    /** {@code POST /posts/validate}: what {@code POST /posts} would find wrong with the same body now, per target. */
    public Uni<PostValidation> validate(String workspaceId, Mode mode, PostDraft draft) {
        return check(workspaceId, mode, draft, false)
                .map(checked -> checked.problems().validation());
    }

    /**
     * The draft checked against its accounts and the clock. {@code forAcceptance}: the lookup tells accounts-service
     * when the post is due, for its check of the live accounts' grants ahead of that time; a dry run leaves nothing
     * behind, so it does not.
     */
    Uni<PostRules.Checked> check(String workspaceId, Mode mode, PostDraft draft, boolean forAcceptance) {
        List<String> ids = draft.accountIds().stream().filter(Objects::nonNull).toList();
        Uni<Map<String, AccountForPosting>> lookup = ids.isEmpty()
                ? Uni.createFrom().item(Map.of())
                : forAcceptance
                        ? accounts.lookup(workspaceId, mode, ids, draft.scheduledAt())
                        : accounts.lookup(workspaceId, mode, ids);
        return lookup.map(found -> PostRules.check(draft, found, Timestamps.now(clock)));
    }
}
