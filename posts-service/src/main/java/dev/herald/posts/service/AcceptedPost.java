package dev.herald.posts.service;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.tracing.TraceParents;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.UsageReservation;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.repository.SeriesStatements;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A valid post about to be accepted: the rows to write, queued, with one target per account in request order; for a
 * next_slot post, the slot validation found ({@code slot}, null otherwise), which acceptance claims; and the series it
 * starts when it repeats ({@code startsSeries}, null when it does not).
 */
record AcceptedPost(
        PostEntity post,
        List<PostTargetEntity> targets,
        Mode mode,
        Set<String> profileIds,
        NextSlots.Choice slot,
        SeriesStatements.NewSeries startsSeries) {

    /** The next_slot post with the slot validation found, scheduled at it until acceptance claims one. */
    AcceptedPost withSlot(NextSlots.Choice choice) {
        scheduleAt(choice.at());
        return new AcceptedPost(post, targets, mode, profileIds, choice, startsSeries);
    }

    /** Schedules the post at the slot it took. */
    void scheduleAt(Instant at) {
        post.scheduledAt = at;
        post.dueAt = at;
    }

    static AcceptedPost of(
            String workspaceId,
            Mode mode,
            PostDraft draft,
            List<AccountForPosting> destinations,
            Instant now,
            PostViews views) {
        PostEntity post = new PostEntity();
        post.id = ResourceIds.newId(IdPrefix.POST);
        post.workspaceId = workspaceId;
        post.mode = mode.wireName();
        post.text = draft.text();
        post.media = draft.media() == null ? null : views.json(draft.media());
        post.firstComment = draft.firstComment() == null ? null : views.json(draft.firstComment());
        post.scheduledAt = draft.scheduledAt();
        post.dueAt = draft.scheduledAt() == null ? now : draft.scheduledAt();
        post.platformOptions = draft.platformOptions().toString();
        post.status = Post.QUEUED;
        post.createdAt = now;
        post.updatedAt = now;
        post.traceParent = TraceParents.current();
        List<PostTargetEntity> targets = new ArrayList<>();
        for (AccountForPosting destination : destinations) {
            PostTargetEntity target = new PostTargetEntity();
            target.postId = post.id;
            target.accountId = destination.account().id();
            target.position = targets.size();
            target.platform = destination.account().platform().wireName();
            target.profileId = destination.account().profileId();
            target.accountUsername = destination.account().username();
            target.reservationId = UsageReservation.publicationId(post.id, target.accountId);
            target.status = PostTarget.QUEUED;
            target.attempts = 0;
            target.updatedAt = now;
            // FirstCommentJob posts it once the target is published, and files its outcome here.
            String firstComment = FirstComments.textFor(
                    destination.account().platform(), draft.firstComment(), draft.platformOptions());
            target.firstComment = firstComment == null ? null : views.json(FirstComments.pending());
            targets.add(target);
        }
        return new AcceptedPost(post, targets, mode, AcceptanceHolds.profileIds(targets), null, null);
    }

    /** This post as the first of {@code series}. */
    AcceptedPost starting(SeriesStatements.NewSeries series) {
        post.seriesId = series.id();
        return new AcceptedPost(post, targets, mode, profileIds, slot, series);
    }
}
