package dev.herald.posts.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiError;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.PostSeries;
import dev.herald.posts.repository.SeriesStatements;
import dev.herald.posts.repository.SeriesStatements.StoredSeries;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;

/**
 * {@code /post-series/{id}}: a recurring post's series as the API shows it, and its cancellation. Another tenant's
 * series does not exist here.
 */
@ApplicationScoped
public class PostSeriesService {
    private final SeriesStatements statements;
    private final PostCancellation cancellation;
    private final ObjectMapper mapper;
    private final Clock clock;

    public PostSeriesService(
            SeriesStatements statements, PostCancellation cancellation, ObjectMapper mapper, Clock clock) {
        this.statements = statements;
        this.cancellation = cancellation;
        this.mapper = mapper;
        this.clock = clock;
    }

    public Uni<PostSeries> get(String workspaceId, Mode mode, String id) {
        return found(workspaceId, mode, id).map(this::toWire);
    }

    /**
     * {@code DELETE /post-series/{id}}: an active series is canceled (no more copies), and each of its posts still
     * queued is canceled as {@code DELETE /posts/{id}} cancels one (its reservations released, its holds given back); a
     * post already handed to delivery goes on. A completed series keeps its status, its last copy canceled if still
     * queued. Repeating the call changes nothing more.
     */
    public Uni<PostSeries> cancel(String workspaceId, Mode mode, String id) {
        return found(workspaceId, mode, id)
                .call(() -> statements.cancel(workspaceId, mode, id, Timestamps.now(clock)))
                .call(() -> statements
                        .queuedPosts(workspaceId, mode, id)
                        .flatMap(queued -> Multi.createFrom()
                                .iterable(queued)
                                .onItem()
                                .transformToUniAndConcatenate(postId -> cancellation
                                        .cancel(workspaceId, mode, postId)
                                        .replaceWithVoid()
                                        // Handed to delivery in the meantime: it publishes, as a post canceled too late
                                        // does.
                                        .onFailure(failure -> failure instanceof ApiException e
                                                && e.code() == ErrorCode.POST_NOT_CANCELABLE)
                                        .recoverWithNull())
                                .collect()
                                .asList()))
                .chain(() -> get(workspaceId, mode, id));
    }

    private Uni<StoredSeries> found(String workspaceId, Mode mode, String id) {
        return statements
                .find(workspaceId, mode, id)
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.notFound("post series"));
    }

    private PostSeries toWire(StoredSeries series) {
        return new PostSeries(
                series.id(),
                series.status(),
                series.mode(),
                series.repeat(),
                series.postIds(),
                series.postIds().size(),
                series.nextAt(),
                series.lastError() == null ? null : apiError(series.lastError()),
                series.createdAt(),
                series.updatedAt());
    }

    private ApiError apiError(String json) {
        try {
            return mapper.readValue(json, ApiError.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a series' stored last_error is unreadable", e);
        }
    }
}
