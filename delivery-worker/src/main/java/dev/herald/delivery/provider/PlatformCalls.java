package dev.herald.delivery.provider;

import dev.herald.common.wire.ProviderAccess;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The calls a live publisher makes for one target, for {@link PublicationLedger} to drive. A failed {@link Uni}
 * (no answer, a broken connection) leaves the outcome unknown.
 *
 * @param create     publishes the post; on a platform that processes media for longer than an attempt it may answer
 *                   {@link PlatformAnswer.Processing} with the platform's reference, which needs {@code check}
 * @param find       looks for the post an earlier call whose outcome is unknown may have made:
 *                   {@link PlatformAnswer.Published}, {@link PlatformAnswer.NotFound}, {@link PlatformAnswer.TokenRefused},
 *                   {@link PlatformAnswer.Processing} (with a {@code check}: the earlier call handed the platform what it
 *                   is still processing, which is checked from then on), or any other answer, whose error then fails the
 *                   attempt (a platform that does not let Herald look answers a final one rather than risk a second post)
 * @param check      asks about what an earlier create left processing at the platform (its reference), and finishes
 *                   the publication when the platform is done: {@link PlatformAnswer.Published},
 *                   {@link PlatformAnswer.Processing} (still working), {@link PlatformAnswer.Refused} (processing
 *                   failed and nothing was published: the reference is dropped and the next attempt creates anew),
 *                   {@link PlatformAnswer.TokenRefused}, or {@link PlatformAnswer.Unknown} (the check could not tell, or
 *                   its own publish call's outcome is unknown: the reference is kept for the next check); null when
 *                   the publisher never answers Processing
 * @param processing how often to check and for how long at most; null with {@code check}
 * @param createPublishes whether the create call itself can publish; false where it only hands the platform media to
 *                   process (an upload) and the post is made by a check: an interrupted create then needs no look
 *                   before the next one, and a reconciler knows it published nothing
 */
public record PlatformCalls(
        Function<ProviderAccess, Uni<PlatformAnswer>> create,
        Function<ProviderAccess, Uni<PlatformAnswer>> find,
        BiFunction<ProviderAccess, String, Uni<PlatformAnswer>> check,
        ProcessingLimits processing,
        boolean createPublishes) {

    public PlatformCalls {
        if ((check == null) != (processing == null)) {
            throw new IllegalArgumentException("a processing check needs its limits, and limits need a check");
        }
        if (!createPublishes && check == null) {
            throw new IllegalArgumentException("a create call that publishes nothing needs a check that does");
        }
    }

    /** A publisher whose create call may publish, and may answer Processing for {@code check}. */
    public PlatformCalls(
            Function<ProviderAccess, Uni<PlatformAnswer>> create,
            Function<ProviderAccess, Uni<PlatformAnswer>> find,
            BiFunction<ProviderAccess, String, Uni<PlatformAnswer>> check,
            ProcessingLimits processing) {
        this(create, find, check, processing, true);
    }

    /** A publisher whose create call is final (published, refused or unknown) within the attempt. */
    public PlatformCalls(
            Function<ProviderAccess, Uni<PlatformAnswer>> create, Function<ProviderAccess, Uni<PlatformAnswer>> find) {
        this(create, find, null, null, true);
    }

    /**
     * How a platform's processing is waited for, one check per attempt, so no attempt outlasts its lease meanwhile.
     *
     * @param checkEvery  the delay before each check ({@link PublishOutcome#later})
     * @param giveUpAfter counted from the create call that started the processing; a check that finds the platform
     *                    still processing after it fails the target
     * @param restartable whether a new create call is harmless once processing is given up: true where nothing is
     *                    published without a further call of Herald's (Instagram's {@code media_publish}), so the
     *                    target fails retryable and the next attempt starts over; false where the platform publishes
     *                    on its own when done, so the target fails {@code publication_unconfirmed} instead
     */
    public record ProcessingLimits(Duration checkEvery, Duration giveUpAfter, boolean restartable) {
        public ProcessingLimits {
            if (checkEvery == null || checkEvery.isNegative() || giveUpAfter == null || giveUpAfter.isNegative()) {
                throw new IllegalArgumentException("processing limits must be zero or positive durations");
            }
        }
    }
}
