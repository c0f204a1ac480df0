package dev.herald.delivery.provider.instagram;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.delivery.config.InstagramConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformCalls;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An Instagram carousel (https://developers.facebook.com/docs/instagram-platform/content-publishing#carousel-posts):
 * one child container per media item, in order ({@code is_carousel_item=true} with {@code image_url}, or
 * {@code media_type=VIDEO} with {@code video_url}), then the {@code media_type=CAROUSEL} container naming them
 * ({@code children}, comma-separated) with the {@code caption}, then {@code media_publish} of that one.
 * <ul>
 *   <li>Images only: the children and then the carousel are waited for within the attempt, as an image is.</li>
 *   <li>With a video: the create call makes the children and answers {@link PlatformAnswer.Processing} with
 *       {@code children:<ids>}; each later attempt asks about every child once. All {@code FINISHED}, the check makes
 *       the carousel container and moves the ledger's reference to it ({@link PublicationLedger#processingMoved}) before
 *       anything else, so a check that breaks off never makes a second one; from then on the carousel container is
 *       checked and published like a Reel's.</li>
 * </ul>
 * Children are harmless until published through their carousel: a refusal anywhere before {@code media_publish} made
 * nothing, and the next attempt starts over.
 */
@ApplicationScoped
public class InstagramCarousel {
    /** Prefixes the ledger reference of children still processing, before their carousel container exists. */
    static final String CHILDREN = "children:";

    private static final String WHAT = "the carousel";

    private final InstagramContainers containers;
    private final PublicationLedger ledger;
    private final InstagramConfig config;
    private final ObjectMapper mapper;

    public InstagramCarousel(
            InstagramContainers containers, PublicationLedger ledger, InstagramConfig config, ObjectMapper mapper) {
        this.containers = containers;
        this.ledger = ledger;
        this.config = config;
        this.mapper = mapper;
    }

    PlatformCalls calls(PublishRequest request, String caption) {
        return new PlatformCalls(
                access -> create(request, access, caption),
                access -> containers.find(access, caption),
                (ProviderAccess access, String ref) -> check(request, access, ref, caption),
                new PlatformCalls.ProcessingLimits(
                        config.reelsCheckInterval(), config.reelsProcessingDeadline(), true));
    }

    private Uni<PlatformAnswer> create(PublishRequest request, ProviderAccess access, String caption) {
        return children(access, request.media(), new ArrayList<>()).flatMap(made -> {
            if (!(made instanceof PlatformAnswer.Processing children)) {
                return Uni.createFrom().item(made);
            }
            if (request.media().stream().anyMatch(item -> Post.Media.VIDEO.equals(item.type()))) {
                return Uni.createFrom().item(new PlatformAnswer.Processing(CHILDREN + children.ref()));
            }
            List<String> ids = List.of(children.ref().split(","));
            return awaitChildren(access, ids, 0)
                    .flatMap(failure -> failure != null
                            ? Uni.createFrom().item(failure)
                            : assemble(access, ids, caption)
                                    .flatMap(carousel -> carousel instanceof PlatformAnswer.Processing container
                                            ? containers.publishWhenFinished(access, container.ref(), WHAT)
                                            : Uni.createFrom().item(carousel)));
        });
    }

    /** The child containers of {@code items} in order: Processing with their comma-separated ids, or the refusal. */
    private Uni<PlatformAnswer> children(ProviderAccess access, List<Post.Media> items, List<String> made) {
        if (made.size() == items.size()) {
            return Uni.createFrom().item(new PlatformAnswer.Processing(String.join(",", made)));
        }
        Post.Media item = items.get(made.size());
        ObjectNode child = mapper.createObjectNode().put("is_carousel_item", true);
        if (Post.Media.VIDEO.equals(item.type())) {
            child.put("media_type", "VIDEO").put("video_url", item.url());
        } else {
            child.put("image_url", item.url());
        }
        return containers.create(access, child, itemName(made.size())).flatMap(answer -> {
            if (!(answer instanceof PlatformAnswer.Processing container)) {
                return Uni.createFrom().item(answer);
            }
            made.add(container.ref());
            return children(access, items, made);
        });
    }

    /** Null once every child from {@code index} on is FINISHED; else the answer that ends the attempt. */
    private Uni<PlatformAnswer> awaitChildren(ProviderAccess access, List<String> ids, int index) {
        if (index == ids.size()) {
            return Uni.createFrom().nullItem();
        }
        return containers
                .awaitFinished(access, ids.get(index), itemName(index), 1)
                .flatMap(failure ->
                        failure != null ? Uni.createFrom().item(failure) : awaitChildren(access, ids, index + 1));
    }

    /** The carousel container over finished children: Processing with its id, or the refusal. */
    private Uni<PlatformAnswer> assemble(ProviderAccess access, List<String> ids, String caption) {
        ObjectNode carousel = mapper.createObjectNode()
                .put("media_type", "CAROUSEL")
                .put("children", String.join(",", ids))
                .put("caption", caption);
        return containers.create(access, carousel, WHAT);
    }

    /**
     * One look at what an earlier attempt left processing: the children (each asked about once; the carousel container
     * made when all are finished) or the carousel container.
     */
    private Uni<PlatformAnswer> check(PublishRequest request, ProviderAccess access, String ref, String caption) {
        if (!ref.startsWith(CHILDREN)) {
            return containers.check(access, ref, caption, WHAT);
        }
        List<String> ids = Arrays.asList(ref.substring(CHILDREN.length()).split(","));
        return lookAtChildren(access, ref, ids, 0).flatMap(pending -> {
            if (pending != null) {
                return Uni.createFrom().item(pending);
            }
            return assemble(access, ids, caption).flatMap(made -> {
                if (!(made instanceof PlatformAnswer.Processing container)) {
                    // A rate limit keeps the finished children for the next check; a refusal starts over.
                    return Uni.createFrom().item(PlatformResponses.keptForNextCheck(made));
                }
                return ledger.processingMoved(request, container.ref())
                        .flatMap(moved -> containers.check(access, container.ref(), caption, WHAT));
            });
        });
    }

    /**
     * Null when every child from {@code index} on is FINISHED; Processing ({@code ref}) while one is in progress;
     * else the answer about a child that ends the check (a failed read keeps the children, ERROR or EXPIRED drops
     * them).
     */
    private Uni<PlatformAnswer> lookAtChildren(ProviderAccess access, String ref, List<String> ids, int index) {
        if (index == ids.size()) {
            return Uni.createFrom().nullItem();
        }
        String what = itemName(index);
        return containers.status(access, ids.get(index), what).flatMap(status -> {
            if (status.failure() != null) {
                return Uni.createFrom().item(InstagramContainers.keepContainer(status.failure()));
            }
            return switch (status.code()) {
                case "FINISHED" -> lookAtChildren(access, ref, ids, index + 1);
                case "ERROR", "EXPIRED" -> Uni.createFrom().item(status.failed(what));
                default -> Uni.createFrom().item(new PlatformAnswer.Processing(ref));
            };
        });
    }

    private static String itemName(int index) {
        return "the carousel's item " + (index + 1);
    }
}
