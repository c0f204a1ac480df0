package dev.herald.gateway.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.api.ApiError;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.rest.RequestIds;
import dev.herald.common.wire.PostBatchItem;
import dev.herald.gateway.proxy.PostBatchReader.Item;
import dev.herald.gateway.routing.Upstream;
import dev.herald.gateway.service.Admission;
import dev.herald.gateway.service.Credential;
import dev.herald.gateway.service.RateLimitStatus;
import dev.herald.gateway.service.RequestAdmission;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Runs the posts of one {@code POST /posts/batch} in order, one at a time, each as {@code POST /posts} would run alone:
 * admitted in the minute's rate window and the month's API-request allowance ({@link RequestAdmission}), sent to
 * posts-service with its key as the {@code Idempotency-Key} and the credential's internal JWT, its answer kept. Only an
 * accepted post ({@code 202}) counts as an API request: any other answer gives its unit back before the next post runs.
 * Once the window or the allowance refuses a post, or posts-service cannot be reached, every later post gets the
 * same answer without being counted or sent.
 */
@ApplicationScoped
class PostBatchItems {
    private static final Logger LOG = Logger.getLogger(PostBatchItems.class);

    private final ServiceProxy proxy;
    private final InternalTokenCache tokens;
    private final RequestAdmission admission;
    private final AdmissionRefusals refusals;
    private final ObjectMapper mapper;

    PostBatchItems(
            ServiceProxy proxy,
            InternalTokenCache tokens,
            RequestAdmission admission,
            AdmissionRefusals refusals,
            ObjectMapper mapper) {
        this.proxy = proxy;
        this.tokens = tokens;
        this.admission = admission;
        this.refusals = refusals;
        this.mapper = mapper;
    }

    /** Every post's answer in request order, and the rate window as the last post admitted left it (null: none was). */
    record Outcome(List<PostBatchItem> answers, RateLimitStatus rateLimit) {}

    Uni<Outcome> run(RoutingContext rc, Credential key, List<Item> items) {
        Run run = new Run(rc, key);
        return Multi.createFrom()
                .range(0, items.size())
                .onItem()
                .transformToUniAndConcatenate(index -> run.post(index, items.get(index)))
                .collect()
                .asList()
                .map(answers -> new Outcome(answers, run.rateLimit));
    }

    /** One batch under way; its posts run one after the other, so its fields need no guard. */
    private final class Run {
        private final RoutingContext rc;
        private final Credential key;
        private RateLimitStatus rateLimit;
        /** The answer of every post still to come, once one was refused for the whole batch. */
        private ApiException stopped;

        Run(RoutingContext rc, Credential key) {
            this.rc = rc;
            this.key = key;
        }

        Uni<PostBatchItem> post(int index, Item item) {
            if (stopped != null) {
                return Uni.createFrom().item(refused(index, stopped));
            }
            return admission
                    .admitKeyRequest(key.workspaceId(), key.mode(), true)
                    .flatMap(verdict -> {
                        rateLimit = verdict.rateLimit();
                        return switch (verdict.outcome()) {
                            case RATE_LIMITED -> stop(index, refusals.rateLimited(verdict.rateLimit()));
                            case ALLOWANCE_SPENT -> stop(index, refusals.allowanceSpent(key, verdict));
                            case ADMITTED ->
                                send(index, item)
                                        .call(answer -> answer.status() == 202
                                                ? Uni.createFrom().voidItem()
                                                : refund(verdict));
                        };
                    });
        }

        private Uni<PostBatchItem> stop(int index, ApiException refusal) {
            stopped = refusal;
            return Uni.createFrom().item(refused(index, refusal));
        }

        private Uni<PostBatchItem> send(int index, Item item) {
            byte[] body;
            try {
                body = mapper.writeValueAsBytes(item.post());
            } catch (JsonProcessingException e) {
                return Uni.createFrom().failure(e);
            }
            if (body.length > ApiForwarding.MAX_BODY_BYTES) {
                // What POST /posts would answer for this body alone.
                return Uni.createFrom()
                        .item(refused(
                                index,
                                new ApiException(
                                        ErrorCode.PAYLOAD_TOO_LARGE,
                                        "The post is larger than 1 MiB, the most POST /posts reads.")));
            }
            return proxy.call(
                            rc,
                            HttpMethod.POST,
                            Upstream.POSTS,
                            "/posts",
                            Map.of("content-type", "application/json", "idempotency-key", item.idempotencyKey()),
                            tokens.tokenFor(key),
                            Buffer.buffer(body))
                    .map(answer -> answered(index, answer))
                    .onFailure()
                    .recoverWithItem(failure -> {
                        LOG.warnf(
                                "request %s: posts-service unavailable for post %d of a batch: %s",
                                rc.request().getHeader(RequestIds.HEADER), index, failure.toString());
                        stopped = new ApiException(
                                ErrorCode.SERVICE_UNAVAILABLE,
                                "A Herald service is temporarily unavailable. Retry shortly.");
                        return refused(index, stopped);
                    });
        }

        private Uni<Void> refund(Admission verdict) {
            return admission
                    .refund(verdict)
                    .onFailure()
                    .invoke(failure -> LOG.warnf(
                            "request %s: refund of an unaccepted post of a batch failed: %s",
                            rc.request().getHeader(RequestIds.HEADER), failure.toString()))
                    .onFailure()
                    .recoverWithNull();
        }
    }

    /** The post as posts-service answered it: its {@code data} (202, or 200 for a replay) or its {@code error}. */
    private PostBatchItem answered(int index, ServiceProxy.ServiceAnswer answer) {
        try {
            JsonNode body = mapper.readTree(answer.body().getBytes());
            if (answer.status() < 300 && body.hasNonNull("data")) {
                return new PostBatchItem(index, answer.status(), body.get("data"), null);
            }
            if (answer.status() >= 400 && body.hasNonNull("error")) {
                return new PostBatchItem(
                        index, answer.status(), null, mapper.treeToValue(body.get("error"), ApiError.class));
            }
        } catch (IOException | IllegalArgumentException e) {
            // Answered below, as any answer that is not posts-service's envelope.
        }
        LOG.warnf("post %d of a batch: posts-service answered %d without its envelope", index, answer.status());
        return refused(index, new ApiException(ErrorCode.INTERNAL_ERROR, "Something went wrong on our side."));
    }

    /** A post the gateway answered itself. */
    private static PostBatchItem refused(int index, ApiException refusal) {
        return new PostBatchItem(index, refusal.code().httpStatus(), null, refusal.toApiError());
    }
}
