package dev.herald.fakes.service;

import dev.herald.fakes.model.ArmedFailure;
import dev.herald.fakes.model.FailureKind;
import dev.herald.fakes.model.FakeRequest;
import dev.herald.fakes.model.FakeResponse;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Routes a request to its platform's fake, applies the failure it meets (if any), journals it with the answer, and
 * answers, late when a delay is armed (without holding a thread meanwhile).
 */
@ApplicationScoped
public class FakeProviders {
    private final Map<String, PlatformFake> fakes = new TreeMap<>();
    private final FakeJournal journal;
    private final FailurePlan plan;
    private final IssuedTokens tokens;
    private final AuthorizationServer authorization;

    private static final long HUGE_ANSWER_BYTES = 50L * 1024 * 1024;

    public FakeProviders(
            Instance<PlatformFake> fakes,
            FakeJournal journal,
            FailurePlan plan,
            IssuedTokens tokens,
            AuthorizationServer authorization) {
        fakes.forEach(fake -> this.fakes.put(fake.platform(), fake));
        this.journal = journal;
        this.plan = plan;
        this.tokens = tokens;
        this.authorization = authorization;
    }

    public boolean knows(String platform) {
        return fakes.containsKey(platform);
    }

    public PlatformFake fake(String platform) {
        PlatformFake fake = fakes.get(platform);
        if (fake == null) {
            throw new IllegalArgumentException(
                    "no fake platform '" + platform + "'; known: " + String.join(", ", fakes.keySet()));
        }
        return fake;
    }

    public Set<String> platforms() {
        return fakes.keySet();
    }

    public Uni<FakeResponse> handle(FakeRequest request) {
        PlatformFake fake = fake(request.platform());
        ArmedFailure failure = plan.take(request, kind -> fake.actsOn(kind, request));
        FakeResponse response = answer(fake, request, failure);
        journal.record(request, response, failure);
        Long delay = failure == null ? null : failure.getDelayMs();
        if (delay == null || delay <= 0) {
            return Uni.createFrom().item(response);
        }
        return Uni.createFrom().item(response).onItem().delayIt().by(Duration.ofMillis(delay));
    }

    private FakeResponse answer(PlatformFake fake, FakeRequest request, ArmedFailure failure) {
        if (failure == null) {
            return fake.handle(request);
        }
        FailureKind kind = failure.getKind();
        switch (kind) {
            case RATE_LIMIT:
                FakeResponse limited = fake.rateLimited(failure);
                return failure.getRetryAfterSeconds() == null
                        ? limited
                        : limited.withHeader(
                                "Retry-After", failure.getRetryAfterSeconds().toString());
            case SERVER_ERROR:
                return fake.serverError(failure.statusOr(500));
            case REFUSE:
                return fake.refused(failure.statusOr(400));
            case EXPIRED_TOKEN:
                tokens.expire(request.platform(), fake.accessToken(request));
                return fake.handle(request);
            case REVOKED_TOKEN:
                var grant = tokens.grant(request.platform(), fake.accessToken(request));
                if (grant != null) {
                    tokens.revokeGrant(grant.grantId());
                }
                return fake.handle(request);
            case LOST_RESPONSE:
                // Done, but the caller cannot know it: what it gets is a proxy's timeout page, not the platform's
                // answer.
                fake.handle(request);
                int status = failure.statusOr(504);
                return FakeResponse.html(status, "<html><body><h1>" + status + " Gateway Time-out</h1></body></html>");
            case HUGE_ANSWER:
            case HUGE_CHUNKED_ANSWER:
                FakeResponse done = fake.handle(request);
                return FakeResponse.huge(
                        failure.statusOr(done.status()), HUGE_ANSWER_BYTES, kind == FailureKind.HUGE_CHUNKED_ANSWER);
            case MALFORMED_ANSWER:
            case UNSAFE_LINK:
            case UNSAFE_ID:
                return UntrustworthyAnswers.spoil(kind, fake.handle(request));
            default:
                // delay, and the kinds the platform acts on itself (deny, processing_error)
                return fake.handle(request.withFailure(failure));
        }
    }

    /** Forgets everything of one platform (null: of all): published items, tokens, codes, journal, armed failures. */
    public void reset(String platform) {
        fakes.values().stream()
                .filter(fake -> platform == null || fake.platform().equals(platform))
                .forEach(PlatformFake::reset);
        tokens.clear(platform);
        authorization.clear(platform);
        journal.clear(platform);
        plan.disarm(platform);
    }
}
