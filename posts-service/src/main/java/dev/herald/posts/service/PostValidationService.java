package dev.herald.posts.service;

import dev.herald.common.api.FieldError;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.AccountsClient;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.PostValidation;
import dev.herald.posts.service.media.MediaLimits;
import dev.herald.posts.service.media.MediaProbe;
import dev.herald.posts.service.media.MediaRules;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Checks a post against every rule acceptance applies, for {@code POST /posts} (which refuses with what is found) and
 * {@code POST /posts/validate} (a dry run that answers it, creating and reserving nothing). {@link #check} is the one
 * place both go through. The dry run also probes each media item ({@link MediaProbe}: at most 64 KiB read per item)
 * and judges what it finds by each target's platform and format ({@link MediaRules}); acceptance does not, so that
 * {@code POST /posts} never waits on a customer's media host (delivery fetches the media and refuses it then).
 */
@ApplicationScoped
public class PostValidationService {
    /** Media items probed at once per dry run: a 35-photo post does not open 35 connections to one host. */
    static final int PROBES_AT_ONCE = 4;

    private final AccountsClient accounts;
    private final MediaProbe probe;
    private final NextSlots nextSlots;
    private final Clock clock;

    public PostValidationService(AccountsClient accounts, MediaProbe probe, NextSlots nextSlots, Clock clock) {
        this.accounts = accounts;
        this.probe = probe;
        this.nextSlots = nextSlots;
        this.clock = clock;
    }

    /** {@code POST /posts/validate}: what {@code POST /posts} would find wrong with the same body now, per target. */
    public Uni<PostValidation> validate(String workspaceId, Mode mode, PostDraft draft) {
        return check(workspaceId, mode, draft, false)
                .flatMap(checked -> draft.media() == null
                        ? Uni.createFrom().item(checked)
                        : probed(draft).map(items -> judged(draft, checked, items)))
                .map(checked -> withSlot(checked.problems().validation(), checked.slot()));
    }

    /** A next_slot post's answer tells the slot it would take now (without claiming it). */
    private static PostValidation withSlot(PostValidation validation, NextSlots.Choice slot) {
        return slot == null || slot.at() == null
                ? validation
                : new PostValidation(validation.valid(), validation.problems(), validation.targets(), slot.at());
    }

    /** Each media item probed, in order. */
    private Uni<List<MediaProbe.Probed>> probed(PostDraft draft) {
        List<Uni<MediaProbe.Probed>> probes = draft.media().items().stream()
                .map(item -> probe.probe(item.url(), item.type()))
                .toList();
        return Uni.join().all(probes).usingConcurrencyOf(PROBES_AT_ONCE).andFailFast();
    }

    /**
     * The checked draft with what the probes found: an item that cannot be fetched or is not what it says is the post's
     * problem (every target would fail on it); one a platform would refuse is the problem of that platform's targets.
     */
    private static PostRules.Checked judged(PostDraft draft, PostRules.Checked checked, List<MediaProbe.Probed> items) {
        boolean carousel = draft.media().size() > 1;
        for (int i = 0; i < items.size(); i++) {
            String field = draft.mediaField(i);
            MediaProbe.Probed item = items.get(i);
            Optional<FieldError> unusable = item.problem(field + ".url");
            if (unusable.isPresent()) {
                checked.problems().ofPost(unusable.get());
                continue;
            }
            for (AccountForPosting account : checked.destinations()) {
                Platform platform = account.account().platform();
                PostFormat format = checked.formats().getOrDefault(platform, PostFormat.FEED);
                // Instagram judges a carousel's items by their own rules; the other platforms' items are feed media.
                String limits = carousel && platform == Platform.INSTAGRAM && format == PostFormat.FEED
                        ? MediaLimits.CAROUSEL
                        : format.wireName();
                MediaRules.problems(platform, limits, field, item.facts())
                        .forEach(problem ->
                                checked.problems().ofTarget(account.account().id(), problem));
            }
        }
        return checked;
    }

    /**
     * The draft checked against its accounts and the clock. {@code forAcceptance}: the lookup tells accounts-service
     * when the post is due, for its check of the live accounts' grants ahead of that time; a dry run leaves nothing
     * behind, so it does not. A next_slot post's lookup is told no time either: its slot is known only once the
     * accounts' profile is; then the slot free now is found ({@link NextSlots#choose}).
     */
    Uni<PostRules.Checked> check(String workspaceId, Mode mode, PostDraft draft, boolean forAcceptance) {
        List<String> ids = draft.accountIds().stream().filter(Objects::nonNull).toList();
        Uni<Map<String, AccountForPosting>> lookup = ids.isEmpty()
                ? Uni.createFrom().item(Map.of())
                : forAcceptance
                        ? accounts.lookup(workspaceId, mode, ids, draft.scheduledAt())
                        : accounts.lookup(workspaceId, mode, ids);
        return lookup.flatMap(found -> {
            Instant now = Timestamps.now(clock);
            PostRules.Checked checked = PostRules.check(draft, found, now);
            return draft.nextSlot()
                    ? nextSlots
                            .choose(workspaceId, mode, checked.destinations(), now)
                            .map(checked::withSlot)
                    : Uni.createFrom().item(checked);
        });
    }
}
