package dev.herald.delivery.provider;

import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.repository.ProviderPublicationStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The ledger's {@code processing} state ({@link PublicationLedger}): each attempt checks what the platform is
 * processing ({@link PlatformCalls#check}) instead of creating or looking, until the check publishes, fails or finds
 * the publisher's deadline passed.
 */
@ApplicationScoped
public class ProcessingChecks {
    private static final Logger LOG = Logger.getLogger(ProcessingChecks.class);
    /**
     * Prefixes a processing ref whose post call has been made and whose answer may be lost
     * ({@link PublicationLedger#postProcessed}).
     */
    static final String POSTING = "posting:";

    private final PublicationSteps steps;
    private final Clock clock;

    public ProcessingChecks(PublicationSteps steps, Clock clock) {
        this.steps = steps;
        this.clock = clock;
    }

    /**
     * One look at what the platform is processing. The token stays {@code processing} unless the check ends it
     * (published, or refused: the processing failed and nothing was published), so a check that breaks off (a
     * timeout, a lapsed lease) is simply made again by the next attempt, which never creates a second one.
     */
    Uni<PublishOutcome> check(
            PublishRequest request,
            ProviderAccess access,
            PlatformCalls calls,
            ProviderPublicationStatements.Before before,
            boolean mayReplaceToken) {
        if (calls.check() == null) {
            return Uni.createFrom()
                    .failure(new IllegalStateException("token " + request.idempotencyToken() + " is processing at "
                            + request.platform().wireName() + " but its publisher makes no checks"));
        }
        if (before.providerRef().startsWith(POSTING)) {
            return findBeforePosting(request, access, calls, before, mayReplaceToken);
        }
        return calls.check().apply(access, before.providerRef()).flatMap(answer -> {
            if (answer instanceof PlatformAnswer.Published published) {
                LOG.infof(
                        "post %s to account %s: published on %s after %d check(s)",
                        request.postId(),
                        request.accountId(),
                        request.platform().wireName(),
                        before.checks());
                return steps.recordPublished(request, published);
            }
            if (answer instanceof PlatformAnswer.Processing) {
                return stillProcessing(request, calls.processing(), before);
            }
            if (answer instanceof PlatformAnswer.TokenRefused && mayReplaceToken) {
                return steps.withFreshToken(request, access, fresh -> check(request, fresh, calls, before, false));
            }
            if (answer instanceof PlatformAnswer.Refused refused) {
                return steps.refused(request, refused.error());
            }
            if (answer instanceof PlatformAnswer.Unknown unknown) {
                // The reference stays: the next attempt checks it again. Out of attempts, the target is uncertain,
                // since the check's own publish call may have gone through.
                return Uni.createFrom().item(PublishOutcome.unknown(unknown.error()));
            }
            if (answer instanceof PlatformAnswer.TokenRefused refused) {
                return Uni.createFrom().item(PublishOutcome.failed(refused.error()));
            }
            return Uni.createFrom().failure(new IllegalStateException("a processing check answered " + answer));
        });
    }

    /**
     * An earlier check found the media ready and started the post, but its answer was lost: the platform's latest posts
     * are looked through first, as for a {@code calling} token, and only when they show none is the ref checked (and
     * the post made) again.
     */
    private Uni<PublishOutcome> findBeforePosting(
            PublishRequest request,
            ProviderAccess access,
            PlatformCalls calls,
            ProviderPublicationStatements.Before before,
            boolean mayReplaceToken) {
        String ref = before.providerRef().substring(POSTING.length());
        return calls.find().apply(access).flatMap(answer -> {
            if (answer instanceof PlatformAnswer.Published published) {
                LOG.infof(
                        "post %s to account %s: an earlier %s call had published %s as %s",
                        request.postId(),
                        request.accountId(),
                        request.platform().wireName(),
                        ref,
                        published.providerPostId());
                return steps.recordPublished(request, published);
            }
            if (answer instanceof PlatformAnswer.NotFound) {
                ProviderPublicationStatements.Before unmarked = new ProviderPublicationStatements.Before(
                        before.state(),
                        before.providerPostId(),
                        before.url(),
                        ref,
                        before.processingStartedAt(),
                        before.checks());
                return check(request, access, calls, unmarked, mayReplaceToken);
            }
            if (answer instanceof PlatformAnswer.TokenRefused && mayReplaceToken) {
                return steps.withFreshToken(
                        request, access, fresh -> findBeforePosting(request, fresh, calls, before, false));
            }
            // Could not look: the mark stays, so a later attempt looks again rather than post.
            return Uni.createFrom().item(PublicationSteps.couldNotLook(PublicationSteps.errorOf(answer)));
        });
    }

    private Uni<PublishOutcome> stillProcessing(
            PublishRequest request,
            PlatformCalls.ProcessingLimits limits,
            ProviderPublicationStatements.Before before) {
        Duration processed = Duration.between(before.processingStartedAt(), Timestamps.now(clock));
        if (processed.compareTo(limits.giveUpAfter()) < 0) {
            return Uni.createFrom().item(PublishOutcome.later(limits.checkEvery()));
        }
        String platform = request.platform().displayName();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("reason", "processing_deadline");
        details.put("provider_ref", before.providerRef());
        details.put("processing_seconds", processed.toSeconds());
        details.put("checks", before.checks());
        LOG.infof(
                "post %s to account %s: %s still processing %s after %d s, given up",
                request.postId(), request.accountId(), platform, before.providerRef(), processed.toSeconds());
        if (limits.restartable()) {
            // Nothing is published without Herald's own last call: the reference is dropped, the next attempt starts
            // over.
            return steps.refused(
                    request,
                    new TargetError(
                            TargetError.PROVIDER_ERROR,
                            platform + " was still processing the"
                                    + " media after " + spoken(processed) + " (Herald waits "
                                    + spoken(limits.giveUpAfter())
                                    + "); nothing was published, and the next attempt hands it over again.",
                            true,
                            details));
        }
        // The platform publishes on its own when done: the token stays processing and no second post is made.
        return Uni.createFrom()
                .item(PublishOutcome.failed(new TargetError(
                        TargetError.PUBLICATION_UNCONFIRMED,
                        platform + " was still processing the media after " + spoken(processed) + " and may yet"
                                + " publish it; check the account before posting again.",
                        false,
                        details)));
    }

    private static String spoken(Duration duration) {
        long seconds = duration.toSeconds();
        return seconds >= 120 ? seconds / 60 + " minutes" : seconds + " seconds";
    }
}
