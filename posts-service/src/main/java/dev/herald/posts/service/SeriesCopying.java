package dev.herald.posts.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.PostSeries;
import dev.herald.posts.repository.SeriesStatements;
import dev.herald.posts.repository.SeriesStatements.StoredSeries;
import dev.herald.posts.rest.PostRequestReader;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import org.jboss.logging.Logger;

/**
 * Creates a series' next copy ({@code SeriesCopyJob}) as {@code POST /posts} accepts a post: the stored body read and
 * its media vetted, then {@link PostService#create} (accounts, rules, reservation, profile holds, outbox) under an
 * idempotency key of the series and the occurrence, so that a replica that dies between creating the copy and
 * advancing the series leaves a retry that replays the copy instead of creating a second one. A copy that is refused
 * (allowance spent, account disconnected or deleted, content no longer valid, its time already past) is the series'
 * {@code last_error} and the series goes on with the next occurrence; no webhook is sent for it. A failure of
 * another service leaves the claim to lapse, and the copy is tried again.
 */
@ApplicationScoped
public class SeriesCopying {
    private static final Logger LOG = Logger.getLogger(SeriesCopying.class);

    private final PostService posts;
    private final PostCancellation cancellation;
    private final SeriesStatements statements;
    private final MediaUrlGuard mediaUrls;
    private final PostViews views;
    private final ObjectMapper mapper;
    private final Clock clock;

    public SeriesCopying(
            PostService posts,
            PostCancellation cancellation,
            SeriesStatements statements,
            MediaUrlGuard mediaUrls,
            PostViews views,
            ObjectMapper mapper,
            Clock clock) {
        this.posts = posts;
        this.cancellation = cancellation;
        this.statements = statements;
        this.mediaUrls = mediaUrls;
        this.views = views;
        this.mapper = mapper;
        this.clock = clock;
    }

    /**
     * The idempotency key of occurrence {@code n}: the {@code §} keeps it apart from every key a request can send (the
     * header takes printable ASCII only).
     */
    static String idempotencyKey(String seriesId, int n) {
        return "§" + seriesId + "/" + n;
    }

    /** Creates the claimed series' next copy (or records its refusal) and moves the series past it. */
    public Uni<Void> createNext(StoredSeries series) {
        int n = series.nextIndex();
        Recurrence recurrence = Recurrence.of(series.repeat(), series.firstAt());
        ObjectNode body = SeriesStart.copyAt(stored(series), recurrence.at(n));
        return Uni.createFrom()
                .item(() -> PostRequestReader.read(body, mediaUrls.allowsPrivateUrls()))
                .flatMap(mediaUrls::vet)
                .flatMap(draft -> posts.create(
                        series.workspaceId(), series.mode(), idempotencyKey(series.id(), n), body, draft, series.id()))
                .map(answer -> answer.replayed()
                        ? postId(answer.replayedBody())
                        : answer.post().id())
                .onItemOrFailure()
                .transformToUni((postId, failure) -> {
                    if (failure != null && !refused(failure)) {
                        return Uni.createFrom().failure(failure);
                    }
                    String lastError = failure == null ? null : views.json(((ApiException) failure).toApiError());
                    if (failure != null) {
                        LOG.infof("series %s: occurrence %d refused: %s", series.id(), n, failure.getMessage());
                    }
                    boolean more = recurrence.includes(n + 1);
                    return statements
                            .advance(
                                    series.id(),
                                    n,
                                    postId,
                                    lastError,
                                    more ? recurrence.at(n + 1) : null,
                                    more ? recurrence.createAt(n + 1) : null,
                                    Timestamps.now(clock))
                            .flatMap(status -> PostSeries.CANCELED.equals(status) && postId != null
                                    ? cancelLate(series, postId)
                                    : Uni.createFrom().voidItem());
                });
    }

    /**
     * A refusal the copy would meet again (the request's own problem, or the workspace's), as opposed to a failure of
     * another service, a claim still held or an account being moved, which a later try may get past.
     */
    static boolean refused(Throwable failure) {
        return failure instanceof ApiException refusal
                && refusal.code().httpStatus() < 500
                && refusal.code() != ErrorCode.IDEMPOTENCY_KEY_IN_USE
                && !PostService.accountBeingMoved(refusal);
    }

    /** The series was canceled while its copy was being created: the copy goes too. */
    private Uni<Void> cancelLate(StoredSeries series, String postId) {
        return cancellation
                .cancel(series.workspaceId(), series.mode(), postId)
                .replaceWithVoid()
                .onFailure(failure -> failure instanceof ApiException e && e.code() == ErrorCode.POST_NOT_CANCELABLE)
                .recoverWithNull();
    }

    private ObjectNode stored(StoredSeries series) {
        try {
            return (ObjectNode) mapper.readTree(series.body());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("series " + series.id() + ": stored body unreadable", e);
        }
    }

    private String postId(String replayedBody) {
        try {
            return mapper.readTree(replayedBody).path("data").path("id").asText();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored POST /posts answer is unreadable", e);
        }
    }
}
