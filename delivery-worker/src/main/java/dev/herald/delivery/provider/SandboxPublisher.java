package dev.herald.delivery.provider;

import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.DeliveryConfig;
import dev.herald.delivery.repository.SandboxPublicationStatements;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;

/**
 * The test-mode provider: publishes nothing anywhere, with outcomes a customer steers by the test account's
 * username, like a payment sandbox's test cards (DESIGN section 3):
 * <ul>
 *   <li>{@code fail_...}: every call fails, not retryable, {@code provider_error};</li>
 *   <li>{@code flaky_...}: the target's first call fails, retryable; later calls publish;</li>
 *   <li>{@code slow_...}: publishes after {@code herald.delivery.sandbox.slow-delay} (3 s);</li>
 *   <li>anything else publishes at once.</li>
 * </ul>
 * Like a real provider with idempotency keys, it remembers every token it was called with
 * ({@code sandbox_publications}): a repeated call answers the post the token already published and never
 * publishes a second one. The post's id is derived from the token, so it is also the same across databases. Each
 * call is recorded too ({@code sandbox_publish_calls}, with its attempt and time), so a target Herald published
 * twice (two calls answered with a post, which a platform without idempotency keys would post twice) shows.
 */
@ApplicationScoped
public class SandboxPublisher implements Publisher {
    static final String FAIL_PREFIX = "fail_";
    static final String FLAKY_PREFIX = "flaky_";
    static final String SLOW_PREFIX = "slow_";
    private static final String URL_BASE = "https://sandbox.herald.invalid/";

    private enum Behaviour {
        FAIL,
        FLAKY,
        SLOW,
        PUBLISH
    }

    private final SandboxPublicationStatements publications;
    private final DeliveryConfig config;
    private final Clock clock;

    public SandboxPublisher(SandboxPublicationStatements publications, DeliveryConfig config, Clock clock) {
        this.publications = publications;
        this.config = config;
        this.clock = clock;
    }

    @Override
    public boolean publishes(Mode mode, Platform platform) {
        return mode == Mode.TEST;
    }

    @Override
    public Uni<PublishOutcome> publish(PublishRequest request) {
        Behaviour behaviour = behaviourOf(request.accountUsername());
        String postId = providerPostIdOf(request.idempotencyToken());
        // What the call stores on the token's first call, and on a later one when nothing is published yet.
        String postIdIfFirst = behaviour == Behaviour.FAIL || behaviour == Behaviour.FLAKY ? null : postId;
        String postIdIfRepeated = behaviour == Behaviour.FAIL ? null : postId;
        Uni<Void> providerTime = behaviour == Behaviour.SLOW
                ? Uni.createFrom()
                        .voidItem()
                        .onItem()
                        .delayIt()
                        .by(config.sandbox().slowDelay())
                : Uni.createFrom().voidItem();
        return providerTime
                .flatMap(ignored -> publications.recordCall(
                        request.idempotencyToken(),
                        request.attempt(),
                        postIdIfFirst,
                        postIdIfRepeated,
                        Timestamps.now(clock)))
                .map(call -> {
                    if (call.providerPostId() != null) {
                        return PublishOutcome.published(
                                call.providerPostId(), urlOf(request.platform(), call.providerPostId()));
                    }
                    return behaviour == Behaviour.FAIL
                            ? PublishOutcome.failed(new TargetError(
                                    TargetError.PROVIDER_ERROR,
                                    "The sandbox provider refused the post: test accounts whose username starts with "
                                            + FAIL_PREFIX + " fail every delivery.",
                                    false,
                                    Map.of()))
                            : PublishOutcome.failed(new TargetError(
                                    TargetError.PROVIDER_ERROR,
                                    "The sandbox provider failed temporarily: test accounts whose username starts with "
                                            + FLAKY_PREFIX + " fail their first attempt.",
                                    true,
                                    Map.of()));
                });
    }

    /** The sandbox remembers every token: its post if it published one, else nothing was published. */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return publications
                .publishedPost(request.idempotencyToken())
                .map(postId -> postId != null
                        ? PublishOutcome.published(postId, urlOf(request.platform(), postId))
                        : PublishOutcome.failed(new TargetError(
                                TargetError.PROVIDER_ERROR,
                                "The delivery's last call to the"
                                        + " sandbox provider was interrupted, and the sandbox published nothing.",
                                false,
                                Map.of("reconciled", true))));
    }

    private static Behaviour behaviourOf(String username) {
        String name = username == null ? "" : username.toLowerCase(Locale.ROOT);
        if (name.startsWith(FAIL_PREFIX)) {
            return Behaviour.FAIL;
        }
        if (name.startsWith(FLAKY_PREFIX)) {
            return Behaviour.FLAKY;
        }
        return name.startsWith(SLOW_PREFIX) ? Behaviour.SLOW : Behaviour.PUBLISH;
    }

    /** The sandbox's post id for a token: {@code sbx_} + 24 hex characters of the token's SHA-256. */
    public static String providerPostIdOf(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return "sbx_" + HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    public static String urlOf(Platform platform, String providerPostId) {
        return URL_BASE + platform.wireName() + "/" + providerPostId;
    }
}
