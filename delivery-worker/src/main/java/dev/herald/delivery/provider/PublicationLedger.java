package dev.herald.delivery.provider;

import dev.herald.common.client.AccountsClient;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.provider.media.MediaIngest;
import dev.herald.delivery.provider.media.MediaSource;
import dev.herald.delivery.repository.ProviderPublicationStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Publishes a live target on a platform that takes no idempotency key without ever posting it twice,
 * around a publisher's {@link PlatformCalls}:
 * <ul>
 *   <li>the account's access comes from accounts-service right before the call; a refused token is replaced once;</li>
 *   <li>each call is written down first ({@code provider_publications}: {@code calling}); a token already
 *       {@code published} answers its post without a call; after a refusal ({@code refused}) the next attempt calls
 *       again; after an unknown outcome ({@code calling} left behind by a timeout, a 5xx or a dead worker) the next
 *       attempt looks for the post first and publishes only if the platform shows none;</li>
 *   <li>a create call the platform answers with something to process (an Instagram Reels container) leaves the token
 *       {@code processing} with the platform's reference, and the attempt ends {@link PublishOutcome#later later}:
 *       each later attempt checks that reference ({@link ProcessingChecks}) instead of creating or looking, until
 *       the check publishes, fails or finds the publisher's deadline passed; a reconciler looks for a
 *       processing token's post as for an interrupted call's.</li>
 * </ul>
 */
@ApplicationScoped
public class PublicationLedger {
    private static final Logger LOG = Logger.getLogger(PublicationLedger.class);

    private final AccountsClient accounts;
    private final ProviderPublicationStatements publications;
    private final ProcessingChecks checks;
    private final PublicationSteps steps;
    private final Clock clock;

    public PublicationLedger(
            AccountsClient accounts,
            ProviderPublicationStatements publications,
            ProcessingChecks checks,
            PublicationSteps steps,
            Clock clock) {
        this.accounts = accounts;
        this.publications = publications;
        this.checks = checks;
        this.steps = steps;
        this.clock = clock;
    }

    /**
     * {@code calls} are this request's (they know its text, media and options). A {@link PublishRequest#reconciling}
     * request only looks ({@link #reconcile}).
     */
    public Uni<PublishOutcome> publish(PublishRequest request, PlatformCalls calls) {
        if (request.reconciling()) {
            return reconcile(request, calls);
        }
        return accounts.accessForDelivery(request.workspaceId(), request.mode(), request.accountId(), null)
                .onFailure()
                .transform(AccessUnavailable::new)
                .flatMap(access -> {
                    if (!access.granted()) {
                        return Uni.createFrom().item(PublishOutcome.failed(access.refusal()));
                    }
                    return publications
                            .startCall(
                                    request.idempotencyToken(),
                                    request.platform().wireName(),
                                    Timestamps.now(clock))
                            .flatMap(before -> {
                                if (ProviderPublicationStatements.PUBLISHED.equals(before.state())) {
                                    return Uni.createFrom()
                                            .item(PublishOutcome.published(before.providerPostId(), before.url()));
                                }
                                if (ProviderPublicationStatements.PROCESSING.equals(before.state())) {
                                    return checks.check(request, access.access(), calls, before, true);
                                }
                                if (ProviderPublicationStatements.CALLING.equals(before.state())
                                        && calls.createPublishes()) {
                                    return find(request, access.access(), calls, true);
                                }
                                return create(request, access.access(), calls, true);
                            });
                });
    }

    /**
     * {@link #publish} for a publisher whose create call uploads the post's media through {@link MediaIngest}:
     * the source is measured, reserved and given an ingest slot only when bytes may move. A token an
     * earlier attempt published answers its post, one the platform is processing is checked, and a reconciling
     * request only looks: none of them touches the source (it may be gone since), and each settles the destination's
     * media reservation with its outcome. {@code calls} are given the located source; without one (those three cases)
     * their create call is never made.
     */
    public Uni<PublishOutcome> publishUploading(
            PublishRequest request, MediaIngest ingest, Function<MediaSource.Located, PlatformCalls> calls) {
        return publishUploadingEach(
                request,
                ingest,
                List.of(request.medium()),
                located -> calls.apply(located == null ? null : located.get(0)));
    }

    /**
     * {@link #publishUploading} for a post whose create call uploads several items ({@code items}, in order): they are
     * located, metered and given to {@code calls} together ({@link MediaIngest#ingestEach}); null where no byte may
     * move.
     */
    public Uni<PublishOutcome> publishUploadingEach(
            PublishRequest request,
            MediaIngest ingest,
            List<Post.Media> items,
            Function<List<MediaSource.Located>, PlatformCalls> calls) {
        return publications.find(request.idempotencyToken()).flatMap(before -> {
            boolean uploaded = before != null
                    && (ProviderPublicationStatements.PUBLISHED.equals(before.state())
                            || ProviderPublicationStatements.PROCESSING.equals(before.state()));
            if (uploaded || request.reconciling()) {
                return publish(request, calls.apply(null)).flatMap(outcome -> ingest.settle(request, outcome));
            }
            return ingest.ingestEach(request, items, located -> publish(request, calls.apply(located)));
        });
    }

    private Uni<PublishOutcome> find(
            PublishRequest request, ProviderAccess access, PlatformCalls calls, boolean mayReplaceToken) {
        return calls.find().apply(access).flatMap(answer -> {
            if (answer instanceof PlatformAnswer.Published published) {
                LOG.infof(
                        "post %s to account %s: an earlier %s call had published it as %s",
                        request.postId(),
                        request.accountId(),
                        request.platform().wireName(),
                        published.providerPostId());
                return steps.recordPublished(request, published);
            }
            if (answer instanceof PlatformAnswer.NotFound) {
                return create(request, access, calls, mayReplaceToken);
            }
            if (answer instanceof PlatformAnswer.Processing processing && calls.check() != null) {
                // The interrupted call did hand the platform its media (a TikTok upload whose last answer was lost):
                // from here on it is checked like any processing publication.
                return publications
                        .processing(request.idempotencyToken(), processing.ref(), Timestamps.now(clock))
                        .replaceWith(PublishOutcome.later(calls.processing().checkEvery()));
            }
            if (answer instanceof PlatformAnswer.TokenRefused refused && mayReplaceToken) {
                return steps.withFreshToken(request, access, fresh -> find(request, fresh, calls, false));
            }
            // Could not look: the ledger stays "calling", so a later attempt looks again rather than post.
            return Uni.createFrom().item(PublicationSteps.couldNotLook(PublicationSteps.errorOf(answer)));
        });
    }

    private Uni<PublishOutcome> create(
            PublishRequest request, ProviderAccess access, PlatformCalls calls, boolean mayReplaceToken) {
        return calls.create().apply(access).flatMap(answer -> {
            if (answer instanceof PlatformAnswer.Published published) {
                return steps.recordPublished(request, published);
            }
            if (answer instanceof PlatformAnswer.TokenRefused refused) {
                // Refused before anything was created; the token is replaced and the call made once more.
                return mayReplaceToken
                        ? steps.createWithFreshToken(request, access, fresh -> create(request, fresh, calls, false))
                        : steps.refused(request, refused.error());
            }
            if (answer instanceof PlatformAnswer.Refused refused) {
                return steps.refused(request, refused.error());
            }
            if (answer instanceof PlatformAnswer.Unknown unknown) {
                return Uni.createFrom().item(PublishOutcome.unknown(unknown.error()));
            }
            if (answer instanceof PlatformAnswer.Processing processing && calls.check() != null) {
                return publications
                        .processing(request.idempotencyToken(), processing.ref(), Timestamps.now(clock))
                        .replaceWith(PublishOutcome.later(calls.processing().checkEvery()));
            }
            return Uni.createFrom().failure(new IllegalStateException("a create call answered " + answer));
        });
    }

    /**
     * For a {@link PlatformCalls#check} that found what the platform processed ready and now makes the post from it
     * itself (a LinkedIn post of an uploaded video, a pin of a Pinterest video): the platform does not
     * mark the media as used, so the token's ref is marked first, and an attempt that never learns the answer
     * (a timeout, a 5xx, a dead worker) looks for the post before it posts again. An answer that created nothing
     * (a refusal, a refused token) removes the mark; a retryable refusal (a rate limit) keeps the processed media for
     * the next check ({@link PlatformResponses#keptForNextCheck}) rather than have it uploaded again.
     */
    public Uni<PlatformAnswer> postProcessed(PublishRequest request, String ref, Supplier<Uni<PlatformAnswer>> post) {
        String token = request.idempotencyToken();
        return publications
                .processingRef(token, ProcessingChecks.POSTING + ref, Timestamps.now(clock))
                .flatMap(marked -> post.get())
                .flatMap(answer ->
                        answer instanceof PlatformAnswer.Refused || answer instanceof PlatformAnswer.TokenRefused
                                ? publications
                                        .processingRef(token, ref, Timestamps.now(clock))
                                        .replaceWith(PlatformResponses.keptForNextCheck(answer))
                                : Uni.createFrom().item(answer));
    }

    /**
     * A check that moved the platform's processing on to its next step (Instagram's carousel container, made from the
     * children the create call left processing) names that step before anything else happens to it, so later checks
     * ask about {@code ref} and never make the step twice. The deadline still counts from the create call.
     */
    public Uni<Void> processingMoved(PublishRequest request, String ref) {
        return publications.processingRef(request.idempotencyToken(), ref, Timestamps.now(clock));
    }

    /**
     * Settles an uncertain target from the ledger and, when its last call's outcome is unknown ({@code calling}), from
     * what the platform shows; never calls create. No call made, or the last one refused: nothing can exist.
     */
    private Uni<PublishOutcome> reconcile(PublishRequest request, PlatformCalls calls) {
        return publications.find(request.idempotencyToken()).flatMap(state -> {
            if (state != null && ProviderPublicationStatements.PUBLISHED.equals(state.state())) {
                return Uni.createFrom().item(PublishOutcome.published(state.providerPostId(), state.url()));
            }
            // A processing token is looked for like an interrupted call: a check may have sent the platform's last call
            // (media_publish) before the worker lost the target. A reconciler never checks, which could publish.
            // Where the create call publishes nothing (an upload), only a post call a check started (marked) can have.
            boolean mayHavePublished = state != null
                    && (ProviderPublicationStatements.CALLING.equals(state.state()) && calls.createPublishes()
                            || ProviderPublicationStatements.PROCESSING.equals(state.state())
                                    && (calls.createPublishes()
                                            || state.providerRef().startsWith(ProcessingChecks.POSTING)));
            if (!mayHavePublished) {
                return Uni.createFrom().item(PublishOutcome.failed(notPublished(request)));
            }
            return accounts.accessForDelivery(request.workspaceId(), request.mode(), request.accountId(), null)
                    .flatMap(access -> access.granted()
                            ? look(request, access.access(), calls, true)
                            : Uni.createFrom().item(PublishOutcome.failed(access.refusal())));
        });
    }

    private Uni<PublishOutcome> look(
            PublishRequest request, ProviderAccess access, PlatformCalls calls, boolean mayReplaceToken) {
        return calls.find().apply(access).flatMap(answer -> {
            if (answer instanceof PlatformAnswer.Published published) {
                LOG.infof(
                        "post %s to account %s: reconciled, %s had published it as %s",
                        request.postId(),
                        request.accountId(),
                        request.platform().wireName(),
                        published.providerPostId());
                return steps.recordPublished(request, published);
            }
            if (answer instanceof PlatformAnswer.NotFound) {
                return publications
                        .refused(request.idempotencyToken(), Timestamps.now(clock))
                        .replaceWith(PublishOutcome.failed(notPublished(request)));
            }
            if (answer instanceof PlatformAnswer.TokenRefused && mayReplaceToken) {
                return steps.withFreshToken(request, access, fresh -> look(request, fresh, calls, false));
            }
            if (answer instanceof PlatformAnswer.Processing) {
                // Still at work on the platform: it cannot say yet, the reconciler looks again later.
                return Uni.createFrom().item(PublishOutcome.later(Duration.ZERO));
            }
            TargetError error = PublicationSteps.errorOf(answer);
            return Uni.createFrom()
                    .item(error.retryable() ? PublishOutcome.later(Duration.ZERO) : PublishOutcome.failed(error));
        });
    }

    private static TargetError notPublished(PublishRequest request) {
        return new TargetError(
                        TargetError.PROVIDER_ERROR,
                        "The delivery's last call to " + request.platform().displayName() + " was interrupted, and "
                                + request.platform().displayName() + " shows no post from it: nothing was published.",
                        false,
                        Map.of("platform", request.platform().wireName(), "reconciled", true))
                // Nothing exists at the platform, so posting again is safe.
                .as(TargetError.CATEGORY_PLATFORM, TargetError.ACTION_RETRY_LATER);
    }
}
