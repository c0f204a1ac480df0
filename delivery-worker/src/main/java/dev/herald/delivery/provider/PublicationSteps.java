package dev.herald.delivery.provider;

import dev.herald.common.client.AccountsClient;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.repository.ProviderPublicationStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;

/**
 * The steps every path of {@link PublicationLedger} and {@link ProcessingChecks} ends in: an outcome written down in
 * {@code provider_publications}, or the call made once more with a fresh token.
 */
@ApplicationScoped
public class PublicationSteps {
    private final AccountsClient accounts;
    private final ProviderPublicationStatements publications;
    private final Clock clock;

    public PublicationSteps(AccountsClient accounts, ProviderPublicationStatements publications, Clock clock) {
        this.accounts = accounts;
        this.publications = publications;
        this.clock = clock;
    }

    /** A look that could not be made: a retryable one leaves the outcome unknown, a final one fails the target. */
    static PublishOutcome couldNotLook(TargetError error) {
        return error.retryable() ? PublishOutcome.unknown(error) : PublishOutcome.failed(error);
    }

    public static TargetError errorOf(PlatformAnswer answer) {
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

    /**
     * The create call again with a fresh token, after the platform refused the token it was made with: nothing was
     * created, so when no fresh token can be had (the grant is gone: the account needs re-authorization, and its target
     * waits) the ledger records the refusal, and the attempt after a reconnection creates rather than looks for a post
     * that cannot exist.
     */
    Uni<PublishOutcome> createWithFreshToken(
            PublishRequest request, ProviderAccess refused, Function<ProviderAccess, Uni<PublishOutcome>> create) {
        return accounts.accessForDelivery(
                        request.workspaceId(), request.mode(), request.accountId(), refused.accessToken())
                .flatMap(fresh -> fresh.granted() ? create.apply(fresh.access()) : refused(request, fresh.refusal()));
    }

    Uni<PublishOutcome> withFreshToken(
            PublishRequest request, ProviderAccess refused, Function<ProviderAccess, Uni<PublishOutcome>> call) {
        return accounts.accessForDelivery(
                        request.workspaceId(), request.mode(), request.accountId(), refused.accessToken())
                .flatMap(fresh -> fresh.granted()
                        ? call.apply(fresh.access())
                        : Uni.createFrom().item(PublishOutcome.failed(fresh.refusal())));
    }

    Uni<PublishOutcome> refused(PublishRequest request, TargetError error) {
        return publications
                .refused(request.idempotencyToken(), Timestamps.now(clock))
                .replaceWith(PublishOutcome.failed(error));
    }

    /**
     * A published post is kept with its id and link only if they are safe to store and show ({@link UntrustedAnswers}):
     * an unsafe id leaves the ledger published without it (never posted again) and fails the target, naming why; an
     * unsafe link is dropped.
     */
    Uni<PublishOutcome> recordPublished(PublishRequest request, PlatformAnswer.Published answered) {
        Optional<TargetError> unsafe = UntrustedAnswers.unsafePostId(request.platform(), answered.providerPostId());
        if (unsafe.isPresent()) {
            return publications
                    .published(request.idempotencyToken(), null, null, Timestamps.now(clock))
                    .replaceWith(PublishOutcome.failed(unsafe.get()));
        }
        PlatformAnswer.Published published =
                new PlatformAnswer.Published(answered.providerPostId(), UntrustedAnswers.safeUrl(answered.url()));
        return publications
                .published(
                        request.idempotencyToken(), published.providerPostId(), published.url(), Timestamps.now(clock))
                .replaceWith(PublishOutcome.published(published.providerPostId(), published.url()));
    }
}
