package dev.herald.posts.service;

import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.client.ProfilesClient;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.posts.messaging.PostEventOutbox;
import dev.herald.posts.model.PostTargetEntity;
import dev.herald.posts.repository.PostRepository;
import dev.herald.posts.repository.PostSlotStatements;
import dev.herald.posts.repository.PostTargetRepository;
import dev.herald.posts.repository.ProfileHoldReleaseRepository;
import dev.herald.posts.repository.ProfileHoldReleaseStatements;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.Logger;

/** The cancellation of a queued post: its targets, its {@code post.canceled} event and its profile holds. */
@ApplicationScoped
public class PostCancellation {
    private static final Logger LOG = Logger.getLogger(PostCancellation.class);

    private final PostRepository posts;
    private final PostTargetRepository targets;
    private final ProfileHoldReleaseRepository holdReleases;
    private final ProfileHoldReleaseStatements releasedHolds;
    private final ProfilesClient profiles;
    private final PostEventOutbox events;
    private final PostDispatcher dispatcher;
    private final PostViews views;
    private final PostSlotStatements slots;
    private final Clock clock;

    public PostCancellation(
            PostRepository posts,
            PostTargetRepository targets,
            ProfileHoldReleaseRepository holdReleases,
            ProfileHoldReleaseStatements releasedHolds,
            ProfilesClient profiles,
            PostEventOutbox events,
            PostDispatcher dispatcher,
            PostViews views,
            PostSlotStatements slots,
            Clock clock) {
        this.posts = posts;
        this.targets = targets;
        this.holdReleases = holdReleases;
        this.releasedHolds = releasedHolds;
        this.profiles = profiles;
        this.events = events;
        this.dispatcher = dispatcher;
        this.views = views;
        this.slots = slots;
        this.clock = clock;
    }

    /**
     * {@code DELETE /posts/{id}}: a post still queued (not yet handed to delivery) is canceled with its targets;
     * {@code post.canceled} is emitted, which also releases its reservations in usage-service, and its profile
     * holds are given back; a next_slot post's queue slot is freed with it, for the next post to take. Otherwise
     * {@code 409 post_not_cancelable}.
     */
    public Uni<Post> cancel(String workspaceId, Mode mode, String id) {
        return Panache.withTransaction(() -> cancelQueued(workspaceId, mode, id))
                .invoke(dispatcher::eventsWritten)
                .call(canceled -> releaseHoldsNow(workspaceId, mode, canceled));
    }

    /**
     * Gives the canceled post's profile holds back before the cancel answers, so the customer can delete the profile
     * right after (spec: "409 unless ... pending posts are finished or canceled"). The rows the cancel committed stay
     * until profiles-service confirmed; if it cannot be reached now, the release job gives them back later.
     */
    private Uni<Void> releaseHoldsNow(String workspaceId, Mode mode, Post canceled) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String profileId : canceled.targets().stream()
                .map(PostTarget::profileId)
                .filter(Objects::nonNull)
                .distinct()
                .toList()) {
            var release = new ProfileHoldReleaseStatements.HoldRelease(profileId, canceled.id(), workspaceId, mode);
            chain = chain.chain(() -> profiles.releaseForPendingPost(workspaceId, mode, profileId, canceled.id())
                    .chain(() -> releasedHolds.done(release))
                    .onFailure()
                    .invoke(e -> LOG.warnf(
                            "hold of profile %s on canceled post %s left to the release job: %s",
                            profileId, canceled.id(), e.toString()))
                    .onFailure()
                    .recoverWithNull());
        }
        return chain;
    }

    private Uni<Post> cancelQueued(String workspaceId, Mode mode, String id) {
        return posts.findInTenantForUpdate(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("post"))
                .flatMap(post -> {
                    if (!Post.QUEUED.equals(post.status)) {
                        return Uni.createFrom()
                                .failure(new ApiException(
                                        ErrorCode.POST_NOT_CANCELABLE,
                                        "Only a queued post can be canceled; this one is " + post.status + ".",
                                        Map.of("status", post.status)));
                    }
                    Instant now = Timestamps.now(clock);
                    post.status = Post.CANCELED;
                    post.updatedAt = now;
                    post.finalizedAt = now;
                    return targets.forPost(post.id).flatMap(rows -> {
                        for (PostTargetEntity target : rows) {
                            target.status = PostTarget.CANCELED;
                            target.completedAt = now;
                            if (FirstComments.isPending(views.firstComment(target))) {
                                target.firstComment = views.json(FirstComments.notPublished(PostTarget.CANCELED));
                            }
                            target.updatedAt = now;
                        }
                        Post wire = views.toWire(post, rows);
                        return events.finalized(workspaceId, mode, wire)
                                .chain(() -> holdReleases.schedule(
                                        workspaceId, mode, post.id, AcceptanceHolds.profileIds(rows)))
                                .chain(() -> slots.releaseInTransaction(post.id))
                                .replaceWith(wire);
                    });
                });
    }
}
