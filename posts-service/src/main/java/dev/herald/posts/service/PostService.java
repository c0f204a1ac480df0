package dev.herald.posts.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.FieldError;
import dev.herald.common.auth.Mode;
import dev.herald.common.outbox.OutboxWriter;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Post;
import dev.herald.posts.config.PostsConfig;
import dev.herald.posts.messaging.PostEventOutbox;
import dev.herald.posts.model.PostEntity;
import dev.herald.posts.repository.AcceptanceStatements;
import dev.herald.posts.repository.UnfinishedAcceptanceStatements;
import dev.herald.posts.repository.UnfinishedAcceptanceStatements.UnfinishedAcceptance;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The acceptance of posts: idempotent, validated against the accounts, charged by reservation. Acceptance asks the
 * owners of every limit synchronously and commits the post only once all of them said yes (DESIGN rule 1); anything
 * refused or failed after a reservation gives it back, so a refusal charges nothing. The steps are their own services:
 * the request's key {@link IdempotencyKeyClaims}, what acceptance takes and gives back {@link AcceptanceHolds}, the
 * commit {@code AcceptanceStatements}. Reads are {@link PostReads}, cancellation {@link PostCancellation}.
 */
@ApplicationScoped
public class PostService {
    private final IdempotencyKeyClaims keys;
    private final UnfinishedAcceptanceStatements acceptances;
    private final PostValidationService validation;
    private final AcceptanceHolds holds;
    private final PostEventOutbox events;
    private final AcceptanceStatements acceptanceStatements;
    private final PostDispatcher dispatcher;
    private final PostViews views;
    private final PostsConfig config;
    private final Clock clock;

    public PostService(
            IdempotencyKeyClaims keys,
            UnfinishedAcceptanceStatements acceptances,
            PostValidationService validation,
            AcceptanceHolds holds,
            PostEventOutbox events,
            AcceptanceStatements acceptanceStatements,
            PostDispatcher dispatcher,
            PostViews views,
            PostsConfig config,
            Clock clock) {
        this.keys = keys;
        this.acceptances = acceptances;
        this.validation = validation;
        this.holds = holds;
        this.events = events;
        this.acceptanceStatements = acceptanceStatements;
        this.dispatcher = dispatcher;
        this.views = views;
        this.config = config;
        this.clock = clock;
    }

    /**
     * {@code POST /posts}. The request is validated against the accounts first; the key is claimed once it is
     * valid. An identical earlier request is answered from its stored response, a different one under the same key
     * is {@code 422 idempotency_key_reused}, one still running is {@code 409 idempotency_key_in_use}, and that holds
     * for a request that would be refused now too (its accounts since disconnected, say). A refused request gives its
     * claim back.
     */
    public Uni<PostAcceptance> create(
            String workspaceId, Mode mode, String idempotencyKey, JsonNode body, PostDraft draft) {
        return create(workspaceId, mode, idempotencyKey, body, draft, null);
    }

    /**
     * The same for a copy of the series {@code seriesId} ({@code SeriesCopying}), which the post joins; a request's
     * post ({@code seriesId} null) starts a series when its draft repeats, committed with it.
     */
    public Uni<PostAcceptance> create(
            String workspaceId, Mode mode, String idempotencyKey, JsonNode body, PostDraft draft, String seriesId) {
        String fingerprint = RequestFingerprint.of(body);
        // Before the accounts are looked up: a fence lifted after this still concerns the profiles we are about to
        // read.
        Instant started = Timestamps.now(clock);
        return validated(workspaceId, mode, draft)
                .map(accepted -> SeriesStart.join(accepted, body, draft, seriesId))
                .onItemOrFailure()
                .transformToUni((accepted, refusal) -> {
                    if (refusal != null) {
                        return keys.answerOrRefuse(workspaceId, mode, idempotencyKey, fingerprint, refusal);
                    }
                    UnfinishedAcceptance unfinished = unfinished(
                            accepted, idempotencyKey, UUID.randomUUID().toString());
                    return keys.claim(unfinished, fingerprint).flatMap(stored -> {
                        if (!unfinished.claimToken().equals(stored.claimToken())) {
                            return Uni.createFrom().item(IdempotencyKeyClaims.answerFromStored(stored, fingerprint));
                        }
                        return accept(accepted, idempotencyKey, unfinished.claimToken(), started)
                                .onFailure()
                                .call(failure ->
                                        keys.release(workspaceId, mode, idempotencyKey, unfinished.claimToken()));
                    });
                });
    }

    /**
     * The post the draft describes, or a failure saying every field that is wrong with it (with each target's problems,
     * as {@code POST /posts/validate} tells them), or, when no field is, the first account that must be reconnected
     * before it can be posted to ({@code 422 account_reauth_required}).
     */
    private Uni<AcceptedPost> validated(String workspaceId, Mode mode, PostDraft draft) {
        return validation.check(workspaceId, mode, draft, true).map(checked -> {
            List<FieldError> errors = checked.problems().refusals();
            if (!errors.isEmpty()) {
                throw ApiException.validationFailed(errors)
                        .withDetail("targets", checked.problems().targets());
            }
            ApiException reauthRequired = PostRules.reauthRequired(draft, checked.found());
            if (reauthRequired != null) {
                throw reauthRequired;
            }
            AcceptedPost accepted =
                    AcceptedPost.of(workspaceId, mode, draft, checked.destinations(), Timestamps.now(clock), views);
            return checked.slot() == null ? accepted : accepted.withSlot(checked.slot());
        });
    }

    /** {@code details.reason} of the refusal of a post to an account that is being moved (decision 224). */
    static final String ACCOUNT_BEING_MOVED = "account_being_moved";

    /** Whether {@code refusal} is that one: a retry gets past it once the move is done. */
    static boolean accountBeingMoved(ApiException refusal) {
        return refusal.code() == ErrorCode.CONFLICT
                && ACCOUNT_BEING_MOVED.equals(refusal.details().get("reason"));
    }

    static ApiException accountBeingMoved(AcceptedPost accepted) {
        List<String> accounts = accepted.targets().stream()
                .map(target -> target.accountId)
                .distinct()
                .toList();
        return new ApiException(
                ErrorCode.CONFLICT,
                "An account of this post is being moved to another profile; retry in a second with the same Idempotency-Key.",
                Map.of("reason", ACCOUNT_BEING_MOVED, "account_ids", accounts));
    }

    /** Claims its slot (next_slot), reserves, holds and commits the post; what was taken is given back should any step fail. */
    private Uni<PostAcceptance> accept(
            AcceptedPost accepted, String idempotencyKey, String claimToken, Instant started) {
        return holds.take(accepted)
                .chain(() -> persist(accepted, idempotencyKey, claimToken, started))
                .onFailure()
                .call(() -> holds.giveBack(accepted)
                        .call(allGivenBack -> allGivenBack
                                ? acceptances
                                        .forget(accepted.post().id)
                                        .onFailure()
                                        .recoverWithNull()
                                : Uni.createFrom().voidItem()))
                .map(PostAcceptance::accepted);
    }

    /** What the acceptance is about to take, recorded first so it is given back should this process die. */
    private static UnfinishedAcceptance unfinished(AcceptedPost accepted, String idempotencyKey, String claimToken) {
        return new UnfinishedAcceptance(
                accepted.post().id,
                accepted.post().workspaceId,
                accepted.mode(),
                idempotencyKey,
                claimToken,
                accepted.targets().stream().map(target -> target.reservationId).toList(),
                List.copyOf(accepted.profileIds()));
    }

    /**
     * The post, its targets and the key's stored answer, in one statement ({@link AcceptanceStatements}). A post due
     * now is handed to delivery by the same statement (publishing, with its {@code post.accepted} event); the
     * dispatcher only releases scheduled posts. The answer, stored for replays, is the post as accepted: queued.
     */
    private Uni<Post> persist(AcceptedPost accepted, String idempotencyKey, String claimToken, Instant started) {
        PostEntity post = accepted.post();
        Post wire = views.toWire(post, accepted.targets());
        String response = views.json(DataEnvelope.of(wire));
        PostEventOutbox.Handover handover =
                post.scheduledAt == null ? dispatcher.handOver(post, accepted.targets(), post.createdAt) : null;
        OutboxWriter.Entry handedOver = handover == null ? null : events.acceptedEntry(handover);
        AcceptanceStatements.CompletedKey key = new AcceptanceStatements.CompletedKey(
                idempotencyKey, claimToken, response, post.createdAt.plus(config.idempotencyRetention()));
        return acceptanceStatements
                .commit(
                        post,
                        accepted.targets(),
                        accepted.mode(),
                        key,
                        handedOver,
                        started.minus(config.accountFenceClockSkew()),
                        accepted.startsSeries())
                .map(outcome -> switch (outcome) {
                    case COMMITTED -> wire;
                    // Our claim expired and another request took the key, or the acceptance was abandoned: that
                    // one answers (or a retry will), and nothing of this one was written.
                    case CLAIM_LOST -> throw IdempotencyKeyClaims.inUse();
                    // The account may have moved since we read it: a retry reads it again (decision 224).
                    case FENCED -> throw accountBeingMoved(accepted);
                })
                .invoke(() -> {
                    if (handover != null) {
                        dispatcher.eventsWritten();
                    }
                });
    }
}
