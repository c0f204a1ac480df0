package dev.herald.posts.repository;

import dev.herald.common.auth.Mode;
import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * The release job's side of the profile holds to give back to profiles-service (written by
 * {@link ProfileHoldReleaseRepository#schedule} in the transaction that made a post final): the oldest to send, and
 * their removal once profiles-service confirmed.
 */
@ApplicationScoped
public class ProfileHoldReleaseStatements {
    private static final NamedStatement OLDEST = NamedStatement.of("""
            select profile_id, post_id, workspace_id, mode from profile_hold_releases
            order by created_at limit :limit""");

    private static final NamedStatement DONE = NamedStatement.of(
            "delete from profile_hold_releases where profile_id = :profile_id and post_id = :post_id");

    private final Pool pool;

    public ProfileHoldReleaseStatements(Pool pool) {
        this.pool = pool;
    }

    /** A hold of one profile on one post. */
    public record HoldRelease(String profileId, String postId, String workspaceId, Mode mode) {}

    public Uni<List<HoldRelease>> oldest(int limit) {
        return OLDEST.parameters().set("limit", limit).execute(pool).map(rows -> {
            List<HoldRelease> releases = new ArrayList<>();
            for (Row row : rows) {
                releases.add(new HoldRelease(
                        row.getString("profile_id"),
                        row.getString("post_id"),
                        row.getString("workspace_id"),
                        Mode.fromWire(row.getString("mode")).orElseThrow()));
            }
            return releases;
        });
    }

    public Uni<Void> done(HoldRelease release) {
        return DONE.parameters()
                .set("profile_id", release.profileId())
                .set("post_id", release.postId())
                .execute(pool)
                .replaceWithVoid();
    }
}
