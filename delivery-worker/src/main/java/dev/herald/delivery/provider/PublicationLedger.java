package dev.herald.delivery.provider;

import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.client.AccountsClient;
import dev.herald.delivery.repository.ProviderPublicationRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Publishes a live target on a platform that takes no idempotency key without ever posting it twice (decision 115),
 * around a publisher's {@link PlatformCalls}:
 * <ul>
 *   <li>the account's access comes from accounts-service right before the call; a refused token is replaced once;</li>
 *   <li>each call is written down first ({@code provider_publications}: {@code calling}); a token already
 *       {@code published} answers its post without a call; after a refusal ({@code refused}) the next attempt calls
 *       again; after an unknown outcome ({@code calling} left behind by a timeout, a 5xx or a dead worker) the next
 *       attempt looks for the post first and publishes only if the platform shows none.</li>
 * </ul>
 */
@ApplicationScoped
public class PublicationLedger {
    private static final Logger LOG = Logger.getLogger(PublicationLedger.class);

    private final AccountsClient accounts;
    private final ProviderPublicationRepository publications;
    private final Clock clock;

    public PublicationLedger(AccountsClient accounts, ProviderPublicationRepository publications, Clock clock) {
        this.accounts = accounts;
        this.publications = publications;
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
        return accounts.access(request.workspaceId(), request.mode(), request.accountId(), null).flatMap(access -> {
            if (!access.granted()) {
                return Uni.createFrom().item(PublishOutcome.failed(access.refusal()));
            }
            return publications.startCall(request.idempotencyToken(), request.platform().wireName(), Timestamps.now(clock))
                    .flatMap(before -> {
                        if (ProviderPublicationRepository.PUBLISHED.equals(before.state())) {
                            return Uni.createFrom().item(PublishOutcome.published(before.providerPostId(), before.url()));
                        }
                        if (ProviderPublicationRepository.CALLING.equals(before.state())) {
                            return find(request, access.access(), calls, true);
                        }
                        return create(request, access.access(), calls, true);
                    });
        });
    }

    private Uni<PublishOutcome> find(PublishRequest request, ProviderAccess access, PlatformCalls calls,
                                     boolean mayReplaceToken) {
        return calls.find().apply(access).flatMap(answer -> {
            if (answer instanceof PlatformAnswer.Published published) {
                LOG.infof("post %s to account %s: an earlier %s call had published it as %s", request.postId(),
                        request.accountId(), request.platform().wireName(), published.providerPostId());
                return recordPublished(request, published);
            }
            if (answer instanceof PlatformAnswer.NotFound) {
                return create(request, access, calls, mayReplaceToken);
            }
            if (answer instanceof PlatformAnswer.TokenRefused refused && mayReplaceToken) {
                return withFreshToken(request, access, fresh -> find(request, fresh, calls, false));
            }
            // Could not look: the ledger stays "calling", so a later attempt looks again rather than post.
            return Uni.createFrom().item(couldNotLook(errorOf(answer)));
        });
    }

    private Uni<PublishOutcome> create(PublishRequest request, ProviderAccess access, PlatformCalls calls,
                                       boolean mayReplaceToken) {
        return calls.create().apply(access).flatMap(answer -> {
            if (answer instanceof PlatformAnswer.Published published) {
                return recordPublished(request, published);
            }
            if (answer instanceof PlatformAnswer.TokenRefused refused) {
                // Refused before anything was created; the token is replaced and the call made once more.
                return mayReplaceToken ? withFreshToken(request, access, fresh -> create(request, fresh, calls, false))
                        : refused(request, refused.error());
            }
            if (answer instanceof PlatformAnswer.Refused refused) {
                return refused(request, refused.error());
            }
            if (answer instanceof PlatformAnswer.Unknown unknown) {
                return Uni.createFrom().item(PublishOutcome.unknown(unknown.error()));
            }
            return Uni.createFrom().failure(new IllegalStateException("a create call answered " + answer));
        });
    }

    /**
     * Settles an uncertain target from the ledger and, when its last call's outcome is unknown ({@code calling}), from
     * what the platform shows; never calls create. No call made, or the last one refused: nothing can exist.
     */
    private Uni<PublishOutcome> reconcile(PublishRequest request, PlatformCalls calls) {
        return publications.find(request.idempotencyToken()).flatMap(state -> {
            if (state != null && ProviderPublicationRepository.PUBLISHED.equals(state.state())) {
                return Uni.createFrom().item(PublishOutcome.published(state.providerPostId(), state.url()));
            }
            if (state == null || !ProviderPublicationRepository.CALLING.equals(state.state())) {
                return Uni.createFrom().item(PublishOutcome.failed(notPublished(request)));
            }
            return accounts.access(request.workspaceId(), request.mode(), request.accountId(), null).flatMap(access ->
                    access.granted() ? look(request, access.access(), calls, true)
                            : Uni.createFrom().item(PublishOutcome.failed(access.refusal())));
        });
    }

    private Uni<PublishOutcome> look(PublishRequest request, ProviderAccess access, PlatformCalls calls, boolean mayReplaceToken) {
        return calls.find().apply(access).flatMap(answer -> {
            if (answer instanceof PlatformAnswer.Published published) {
                LOG.infof("post %s to account %s: reconciled, %s had published it as %s", request.postId(),
                        request.accountId(), request.platform().wireName(), published.providerPostId());
                return recordPublished(request, published);
            }
            if (answer instanceof PlatformAnswer.NotFound) {
                return publications.refused(request.idempotencyToken(), Timestamps.now(clock))
                        .replaceWith(PublishOutcome.failed(notPublished(request)));
            }
            if (answer instanceof PlatformAnswer.TokenRefused && mayReplaceToken) {
                return withFreshToken(request, access, fresh -> look(request, fresh, calls, false));
            }
            TargetError error = errorOf(answer);
            return Uni.createFrom().item(error.retryable() ? PublishOutcome.later(Duration.ZERO) : PublishOutcome.failed(error));
        });
    }

    /** A look that could not be made: a retryable one leaves the outcome unknown, a final one fails the target. */
    private static PublishOutcome couldNotLook(TargetError error) {
        return error.retryable() ? PublishOutcome.unknown(error) : PublishOutcome.failed(error);
    }

    private static TargetError notPublished(PublishRequest request) {
        return new TargetError(TargetError.PROVIDER_ERROR, "The delivery's last call to " + request.platform().displayName()
                + " was interrupted, and " + request.platform().displayName() + " shows no post from it: nothing was published.",
                false, Map.of("platform", request.platform().wireName(), "reconciled", true));
    }

    private static TargetError errorOf(PlatformAnswer answer) {
        if (answer instanceof PlatformAnswer.Refused refused) {
            return refused.error();
        }
        if (answer instanceof PlatformAnswer.Unknown unknown) {
            return unknown.error();
        }
        if (answer instanceof PlatformAnswer.TokenRefused refused) {
            return refused.error();
        }
        throw new IllegalStateException("no error in " + answer);
    }

    private Uni<PublishOutcome> withFreshToken(PublishRequest request, ProviderAccess refused,
                                               Function<ProviderAccess, Uni<PublishOutcome>> call) {
        return accounts.access(request.workspaceId(), request.mode(), request.accountId(), refused.accessToken())
                .flatMap(fresh -> fresh.granted() ? call.apply(fresh.access())
                        : Uni.createFrom().item(PublishOutcome.failed(fresh.refusal())));
    }

    private Uni<PublishOutcome> refused(PublishRequest request, TargetError error) {
        return publications.refused(request.idempotencyToken(), Timestamps.now(clock)).replaceWith(PublishOutcome.failed(error));
    }

    private Uni<PublishOutcome> recordPublished(PublishRequest request, PlatformAnswer.Published published) {
        return publications.published(request.idempotencyToken(), published.providerPostId(), published.url(), Timestamps.now(clock))
                .replaceWith(PublishOutcome.published(published.providerPostId(), published.url()));
    }
}
