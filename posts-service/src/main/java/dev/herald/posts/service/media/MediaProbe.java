package dev.herald.posts.service.media;

import dev.herald.common.api.FieldError;
import dev.herald.common.net.PublicAddresses;
import dev.herald.common.net.PublicUrls;
import dev.herald.posts.config.MediaConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.mutiny.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * A dry run's bounded look at one media URL: reachable, an image or a video as declared, how large, and what its header
 * says ({@link MediaHeader}). One {@code GET} with {@code Range: bytes=0-65535}, of which at most 64 KiB are read even
 * when the host ignores the range (the connection is then dropped); for an MP4/MOV whose {@code moov} lies past those
 * bytes (or a JPEG whose frame header does) and whose size the host gave ({@code Content-Range}), one more ranged
 * {@code GET} of 64 KiB from where the {@code moov} starts (the walk of the top-level boxes knows the offset, so this
 * reads its head even when it is larger than 64 KiB, where the last 64 KiB of the file would not). The whole probe,
 * redirects included, takes at most {@code herald.media.probe-timeout} (5 s). The reads themselves are
 * {@link RangedReads}'.
 * <p>
 * The SSRF guard is delivery's ({@link PublicUrls}, as {@code MediaSource} uses it): absolute https, a host that
 * resolves now to public addresses only, and the connection goes to the very address checked (DNS rebinding reaches
 * nothing new). Redirects are followed up to 3, each to a URL checked the same way; {@code
 * herald.media.allow-private-urls} (local runs) admits http and non-public addresses, as at acceptance. Resolving
 * blocks, so it runs on a worker thread; everything else is Vert.x's non-blocking client.
 */
@ApplicationScoped
public class MediaProbe {
    public static final int READ_BYTES = 64 * 1024;
    public static final int MAX_REDIRECTS = 3;

    /** No answer: the host does not resolve or connect, took too long, or redirected somewhere Herald may not go. */
    public static final String MEDIA_UNREACHABLE = "media_unreachable";
    /** The host answered with an error status (404, 403, 500, ...). */
    public static final String MEDIA_UNAVAILABLE = "media_unavailable";
    /** Neither an image nor a video (an HTML page, an audio file). */
    public static final String MEDIA_TYPE_UNSUPPORTED = "media_type_unsupported";
    /** An image where the item says video, or the other way round. */
    public static final String MEDIA_TYPE_MISMATCH = "media_type_mismatch";

    /**
     * A probe's answer: the facts, or the problem (a code above and a message about the URL), and how many bytes of the
     * body were read in all.
     */
    public record Probed(MediaFacts facts, String code, String message, long bytesRead) {
        /** The problem as a field error for {@code field} ({@code media[1].url}); empty when the item was measured. */
        public Optional<FieldError> problem(String field) {
            return code == null ? Optional.empty() : Optional.of(new FieldError(field, code, message));
        }
    }

    private final Vertx vertx;
    private final RangedReads reads;
    private final PublicUrls urls;
    private final Duration timeout;

    @Inject
    public MediaProbe(Vertx vertx, MediaConfig config) {
        this(
                vertx,
                config.allowPrivateUrls(),
                InetAddress::getAllByName,
                config.probeTimeout(),
                new HttpClientOptions(),
                RangedReads.CHECKED_ADDRESS);
    }

    MediaProbe(
            Vertx vertx,
            boolean allowPrivateUrls,
            PublicUrls.Resolver resolver,
            Duration timeout,
            HttpClientOptions options,
            RangedReads.Dialer dialer) {
        this.vertx = vertx;
        this.timeout = timeout;
        this.reads = new RangedReads(vertx.getDelegate(), options, timeout, dialer);
        // A literal address is parsed, never looked up (as delivery's MediaSource does).
        this.urls = new PublicUrls(
                allowPrivateUrls,
                host -> PublicAddresses.isLiteral(host)
                        ? new InetAddress[] {InetAddress.getByName(host)}
                        : resolver.resolve(host));
    }

    @PreDestroy
    void close() {
        reads.close();
    }

    /** Probes {@code url}; {@code declaredType} is the item's {@code type} ({@code image}, {@code video}) or null. */
    public Uni<Probed> probe(String url, String declaredType) {
        AtomicReference<HttpClientRequest> current = new AtomicReference<>();
        LongAdder read = new LongAdder();
        return fetch(url, 0, 0, current, read)
                .flatMap(first -> {
                    MediaHeader.Read header = MediaHeader.read(first.body());
                    Long total = first.total();
                    boolean readOn = header.resumeAt() >= first.body().length
                            && first.status() == 206
                            && total != null
                            && header.resumeAt() < total;
                    if (!readOn) {
                        return Uni.createFrom().item(facts(first, header, total));
                    }
                    return fetch(first.url(), header.resumeAt(), 0, current, read)
                            .map(later -> {
                                boolean continues = later.status() == 206 && later.rangeStart() == header.resumeAt();
                                MediaHeader.Read whole = continues
                                        ? MediaHeader.read(first.body(), header.resumeAt(), later.body())
                                        : header;
                                return facts(first, whole, total);
                            })
                            // The first read stands when the second fails: the item is there, its header unread.
                            .onFailure()
                            .recoverWithItem(failure -> facts(first, header, total));
                })
                .map(facts -> judge(url, facts, declaredType, read.sum()))
                .onCancellation()
                .invoke(() -> RangedReads.reset(current.get()))
                .ifNoItem()
                .after(timeout)
                .failWith(() -> new Refusal(
                        MEDIA_UNREACHABLE,
                        "The media host of " + url + " did not answer within " + timeout.toMillis() / 1000.0 + " s."))
                .onFailure()
                .recoverWithItem(failure -> refused(url, failure, read.sum()));
    }

    private static Probed judge(String url, MediaFacts facts, String declaredType, long read) {
        if (facts.kind() == null) {
            String what = facts.container() != null
                    ? facts.container().toUpperCase(Locale.ROOT)
                    : facts.contentType() != null ? facts.contentType() : "of no declared type";
            return new Probed(
                    null,
                    MEDIA_TYPE_UNSUPPORTED,
                    "The media at " + url + " is " + what + ", neither an image, a video nor a document.",
                    read);
        }
        if (declaredType != null && !declaredType.equals(facts.kind().wireName())) {
            return new Probed(
                    null,
                    MEDIA_TYPE_MISMATCH,
                    "The media's type is " + declaredType + ", but " + url + " is "
                            + MediaFacts.article(facts.kind())
                            + (facts.container() == null
                                    ? ""
                                    : " (" + facts.container().toUpperCase(Locale.ROOT) + ")")
                            + ".",
                    read);
        }
        return new Probed(facts, null, null, read);
    }

    private static MediaFacts facts(RangedReads.Fetched first, MediaHeader.Read header, Long total) {
        String type = first.contentType();
        // The bytes say best; bytes recognised as neither (an audio-only MP4) are neither whatever the host says.
        MediaFacts.Kind kind =
                header.kind() != null || header.container() != null ? header.kind() : ContentTypes.kind(type);
        String container = header.container() != null ? header.container() : ContentTypes.container(type);
        return new MediaFacts(
                type, total, kind, container, header.codec(), header.width(), header.height(), header.duration());
    }

    private Uni<RangedReads.Fetched> fetch(
            String url, long from, int redirects, AtomicReference<HttpClientRequest> current, LongAdder read) {
        return vet(url).flatMap(target -> reads.get(url, target, from, current, read))
                .flatMap(answer -> {
                    if (answer.location() == null) {
                        return Uni.createFrom().item(answer.fetched());
                    }
                    if (redirects >= MAX_REDIRECTS) {
                        throw new Refusal(
                                MEDIA_UNREACHABLE,
                                "The media URL " + url + " redirected more than " + MAX_REDIRECTS
                                        + " times; give the final URL.");
                    }
                    String next;
                    try {
                        next = URI.create(url)
                                .resolve(answer.location().strip())
                                .toString();
                    } catch (IllegalArgumentException e) {
                        throw new Refusal(MEDIA_UNREACHABLE, "The media URL " + url + " redirected to an invalid URL.");
                    }
                    return fetch(withoutFragment(next), from, redirects + 1, current, read);
                });
    }

    /** A URL's checked address; fails with {@link PublicUrls.RefusedUrl}. */
    private Uni<PublicUrls.Target> vet(String url) {
        Uni<PublicUrls.Target> checked = Uni.createFrom().item(() -> urls.check(withoutFragment(url)));
        return urls.checksWithoutLookup(withoutFragment(url)) ? checked : vertx.executeBlocking(checked, false);
    }

    private static String withoutFragment(String url) {
        // A fragment never reaches the host: dropped, not refused (as delivery does).
        return url != null && url.indexOf('#') >= 0 ? url.substring(0, url.indexOf('#')) : url;
    }

    private static Probed refused(String url, Throwable failure, long read) {
        if (failure instanceof Refusal refusal) {
            return new Probed(null, refusal.code, refusal.getMessage(), read);
        }
        if (failure instanceof PublicUrls.RefusedUrl refused) {
            return new Probed(
                    null,
                    MEDIA_UNREACHABLE,
                    "The media URL " + url + " (or a URL it redirects to) " + refused.getMessage()
                            + "; nothing was fetched from it.",
                    read);
        }
        if (failure instanceof TimeoutException) {
            return new Probed(null, MEDIA_UNREACHABLE, "The media host of " + url + " did not answer in time.", read);
        }
        return new Probed(
                null,
                MEDIA_UNREACHABLE,
                "The media host of " + url + " could not be reached ("
                        + failure.getClass().getSimpleName() + ").",
                read);
    }

    /** A probe's problem found on the way: its code and message. */
    static final class Refusal extends RuntimeException {
        private final String code;

        Refusal(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }
}
