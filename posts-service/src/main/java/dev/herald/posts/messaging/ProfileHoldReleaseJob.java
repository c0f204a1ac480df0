package dev.herald.posts.messaging;

import dev.herald.common.client.ProfilesClient;
import dev.herald.common.scheduling.DueWork;
import dev.herald.common.scheduling.RepeatingTask;
import dev.herald.posts.config.PostsConfig;
import dev.herald.posts.repository.ProfileHoldReleaseStatements;
import dev.herald.posts.repository.ProfileHoldReleaseStatements.HoldRelease;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Gives the profile holds of final posts back to profiles-service, from the rows their final transaction
 * wrote. Releasing is idempotent, so a release repeated after a crash (or by two replicas) does no harm; a
 * failed one stays for the next run.
 */
@ApplicationScoped
public class ProfileHoldReleaseJob {
    private static final Logger LOG = Logger.getLogger(ProfileHoldReleaseJob.class);
    private static final int BATCH = 100;

    private final ProfileHoldReleaseStatements releases;
    private final RepeatingTask task;
    private final DueWork<HoldRelease> work;

    public ProfileHoldReleaseJob(
            ProfileHoldReleaseStatements releases, ProfilesClient profiles, Vertx vertx, PostsConfig config) {
        this.releases = releases;
        this.work = DueWork.goingOnAfterFailure(
                release -> profiles.releaseForPendingPost(
                                release.workspaceId(), release.mode(), release.profileId(), release.postId())
                        .chain(() -> releases.done(release))
                        .replaceWith(true),
                (release, failure) -> LOG.warnf(
                        "hold of profile %s on post %s not released yet: %s",
                        release.profileId(), release.postId(), failure.toString()));
        this.task = new RepeatingTask(vertx, "profile hold release", config.holdReleaseInterval(), this::releaseAll);
    }

    void start(@Observes StartupEvent started) {
        task.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        task.stop();
    }

    private Uni<Void> releaseAll() {
        return work.round(releases.oldest(BATCH)).replaceWithVoid();
    }
}
