package dev.herald.delivery.provider.youtube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.auth.Mode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.YouTubeConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformCalls;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.PublicationLedger;
import dev.herald.delivery.provider.PublishOutcome;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.Publisher;
import dev.herald.delivery.provider.media.MediaIngest;
import dev.herald.delivery.provider.media.MediaSource;
import dev.herald.delivery.provider.media.StreamingHttp;
import dev.herald.delivery.repository.ProviderPublicationStatements;
import dev.herald.delivery.repository.YouTubeUploadSessionStatements;
import dev.herald.delivery.repository.YouTubeUploadSessionStatements.Session;
import io.smallrye.mutiny.Uni;
import io.vertx.core.VertxException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Live YouTube videos through the YouTube Data API v3's resumable upload (the account's external id
 * is the channel id): {@code POST /upload/youtube/v3/videos?uploadType=resumable&part=snippet,status} with the
 * video's {@code snippet} and {@code status} opens a session (its URI in {@code Location}), then one {@code PUT} streams
 * the bytes from the media URL ({@link MediaIngest}: checked, metered, within the workspace's concurrent ingests).
 * The answer's video id is the target's {@code provider_post_id}, {@code https://www.youtube.com/watch?v=<id>} its url.
 * <p>
 * <b>Never twice.</b> YouTube takes no idempotency key, but the session is its own: Herald keeps the session URI per
 * target ({@code youtube_upload_sessions}), and any later attempt first asks the session where it stands
 * ({@code PUT} with {@code Content-Range: bytes *}{@code /<size>}): {@code 200}/{@code 201} is the finished video (an
 * earlier attempt's answer was lost), {@code 308} with {@code Range: bytes=0-N} resumes from byte N+1 (the source
 * fetched again with a {@code Range} request), {@code 404}/{@code 410} is a lapsed session, which published nothing,
 * and a new one starts. A connection that breaks during the {@code PUT} is resumed the same way within the attempt,
 * up to {@code resumes} times. {@link PublicationLedger} drives the calls (a published target answers without a call;
 * a refused token is replaced once).
 */
@ApplicationScoped
public class YouTubePublisher implements Publisher {
    private static final Logger LOG = Logger.getLogger(YouTubePublisher.class);
    private static final Pattern RANGE = Pattern.compile("^bytes=0-(\\d+)$");
    static final int TITLE_MAX_CHARACTERS = 100;
    static final int DESCRIPTION_MAX_BYTES = 5000;

    private final MediaIngest ingest;
    private final StreamingHttp http;
    private final MediaSource sources;
    private final PublicationLedger ledger;
    private final YouTubeUploadSessionStatements sessions;
    private final ProviderPublicationStatements publications;
    private final YouTubeConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;

    public YouTubePublisher(
            MediaIngest ingest,
            PublicationLedger ledger,
            YouTubeUploadSessionStatements sessions,
            ProviderPublicationStatements publications,
            YouTubeConfig config,
            ObjectMapper mapper,
            Clock clock) {
        this.ingest = ingest;
        this.http = ingest.http();
        this.sources = ingest.sources();
        this.ledger = ledger;
        this.sessions = sessions;
        this.publications = publications;
        this.config = config;
        this.mapper = mapper;
        this.clock = clock;
    }

    @Override
    public boolean publishes(Mode mode, Platform platform) {
        return mode == Mode.LIVE && platform == Platform.YOUTUBE;
    }

    @Override
    public boolean ingestsMedia() {
        return true;
    }

    @Override
    public Uni<PublishOutcome> publish(PublishRequest request) {
        Post.Media media = request.media();
        if (media == null || !Post.Media.VIDEO.equals(media.type())) {
            return Uni.createFrom()
                    .item(PublishOutcome.failed(new TargetError(
                            TargetError.PROVIDER_ERROR,
                            "YouTube posts need a video; nothing was sent to YouTube.",
                            false,
                            Map.of("platform", "youtube", "media_type", media == null ? "none" : media.type()))));
        }
        ObjectNode video = video(request);
        // A video an earlier attempt published is answered before the source is looked at: the file may be gone since.
        return publications
                .publishedPost(request.idempotencyToken())
                .flatMap(earlier -> earlier.isPresent()
                        ? ingest.settle(
                                request,
                                PublishOutcome.published(
                                        earlier.get().providerPostId(),
                                        earlier.get().url()))
                        : ingest.ingest(
                                request,
                                source -> ledger.publish(
                                        request,
                                        new PlatformCalls(
                                                access -> upload(request, access, source, video),
                                                access -> upload(request, access, source, video)))));
    }

    /**
     * Settles an uncertain upload by asking its session what it made (a reconciler only looks): never opens a session,
     * never sends a byte. A finished session is the video; an unfinished, lapsed or missing one made none. The media
     * reservation is consumed or released with the answer.
     */
    @Override
    public Uni<PublishOutcome> reconcile(PublishRequest request) {
        return ledger.publish(
                        request,
                        new PlatformCalls(
                                access -> Uni.createFrom()
                                        .failure(new IllegalStateException("reconciling never uploads")),
                                access -> sessionOutcome(request, access)))
                .flatMap(outcome -> ingest.settle(request, outcome));
    }

    private Uni<PlatformAnswer> sessionOutcome(PublishRequest request, ProviderAccess access) {
        return sessions.find(request.idempotencyToken()).flatMap(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().item(new PlatformAnswer.NotFound());
            }
            Session session = found.get();
            Map<String, String> headers = Map.of(
                    "Authorization", PlatformResponses.bearer(access), "Content-Range", "bytes */" + session.size());
            return http.send(HttpMethod.PUT, StreamingHttp.Endpoint.of(session.uri()), headers, Buffer.buffer())
                    .map(answer -> {
                        if (answer.status() == 200 || answer.status() == 201) {
                            return published(answer);
                        }
                        if (answer.status() == 308 || answer.status() == 404 || answer.status() == 410) {
                            return new PlatformAnswer.NotFound();
                        }
                        return error(answer, "YouTube could not report the upload's progress", true);
                    });
        });
    }

    /** Continues the target's session if it has one for this source, else opens one; either way ends with YouTube's answer. */
    private Uni<PlatformAnswer> upload(
            PublishRequest request, ProviderAccess access, MediaSource.Located source, ObjectNode video) {
        return sessions.find(request.idempotencyToken()).flatMap(found -> {
            if (found.isPresent() && found.get().size() == source.size()) {
                return resume(request, access, source, video, found.get(), config.resumes());
            }
            return start(request, access, source, video, config.resumes());
        });
    }

    private Uni<PlatformAnswer> start(
            PublishRequest request,
            ProviderAccess access,
            MediaSource.Located source,
            ObjectNode video,
            int resumesLeft) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", PlatformResponses.bearer(access));
        headers.put("Content-Type", "application/json; charset=UTF-8");
        headers.put("X-Upload-Content-Length", Long.toString(source.size()));
        headers.put("X-Upload-Content-Type", uploadType(source.contentType()));
        String url = config.uploadUrl() + "/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status";
        return http.send(HttpMethod.POST, StreamingHttp.Endpoint.of(url), headers, Buffer.buffer(video.toString()))
                .flatMap(answer -> {
                    String location = answer.header("Location");
                    if (answer.status() != 200 || location == null || location.isBlank()) {
                        // No session, so no video: a refusal whatever the status.
                        PlatformAnswer refusal = error(answer, "YouTube refused to start the upload", false);
                        return Uni.createFrom().item(refusal);
                    }
                    Session session = new Session(
                            URI.create(config.uploadUrl()).resolve(location).toString(), source.size());
                    return sessions.save(request.idempotencyToken(), session, Timestamps.now(clock))
                            .flatMap(saved -> send(request, access, source, video, session, 0, resumesLeft));
                });
    }

    /** Asks the session how far it got, then finishes from there. */
    private Uni<PlatformAnswer> resume(
            PublishRequest request,
            ProviderAccess access,
            MediaSource.Located source,
            ObjectNode video,
            Session session,
            int resumesLeft) {
        Map<String, String> headers =
                Map.of("Authorization", PlatformResponses.bearer(access), "Content-Range", "bytes */" + session.size());
        return http.send(HttpMethod.PUT, StreamingHttp.Endpoint.of(session.uri()), headers, Buffer.buffer())
                .flatMap(answer -> {
                    if (answer.status() == 200 || answer.status() == 201) {
                        return Uni.createFrom().item(published(answer));
                    }
                    if (answer.status() == 308) {
                        long offset = confirmed(answer.header("Range"));
                        LOG.infof(
                                "post %s to account %s: YouTube has %d of %d bytes, resuming",
                                request.postId(), request.accountId(), offset, session.size());
                        return send(request, access, source, video, session, offset, resumesLeft);
                    }
                    if (answer.status() == 404 || answer.status() == 410) {
                        // The session lapsed unfinished: it made no video, and a new one may start.
                        return sessions.forget(request.idempotencyToken())
                                .flatMap(gone -> resumesLeft > 0
                                        ? start(request, access, source, video, resumesLeft - 1)
                                        : Uni.createFrom().item(lapsed(answer.status())));
                    }
                    return Uni.createFrom().item(error(answer, "YouTube could not report the upload's progress", true));
                });
    }

    /** Streams the source from {@code offset} to the session. */
    private Uni<PlatformAnswer> send(
            PublishRequest request,
            ProviderAccess access,
            MediaSource.Located source,
            ObjectNode video,
            Session session,
            long offset,
            int resumesLeft) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", PlatformResponses.bearer(access));
        headers.put("Content-Type", uploadType(source.contentType()));
        if (offset > 0) {
            headers.put("Content-Range", "bytes " + offset + "-" + (session.size() - 1) + "/" + session.size());
        }
        return sources.open(source, offset)
                .flatMap(body -> http.stream(
                        HttpMethod.PUT,
                        StreamingHttp.Endpoint.of(session.uri()),
                        headers,
                        session.size() - offset,
                        body))
                .flatMap(answer -> {
                    if (answer.status() == 200 || answer.status() == 201) {
                        return Uni.createFrom().item(published(answer));
                    }
                    if (answer.status() == 308 && resumesLeft > 0) {
                        return resume(request, access, source, video, session, resumesLeft - 1);
                    }
                    if (answer.status() == 404 || answer.status() == 410) {
                        return sessions.forget(request.idempotencyToken()).replaceWith(lapsed(answer.status()));
                    }
                    PlatformAnswer failure = error(answer, "YouTube refused the upload", true);
                    if (failure instanceof PlatformAnswer.Refused refused
                            && !refused.error().retryable()) {
                        return sessions.forget(request.idempotencyToken()).replaceWith(failure);
                    }
                    return Uni.createFrom().item(failure);
                })
                // A broken connection or a stalled transfer, not a refusal of the source or a defect here.
                .onFailure(failure ->
                        (failure instanceof IOException || failure instanceof VertxException) && resumesLeft > 0)
                .recoverWithUni(failure -> {
                    LOG.infof(
                            "post %s to account %s: the upload to YouTube broke off (%s); asking the session where it stands",
                            request.postId(), request.accountId(), failure.toString());
                    return resume(request, access, source, video, session, resumesLeft - 1);
                });
    }

    private static PlatformAnswer lapsed(int status) {
        return new PlatformAnswer.Refused(new TargetError(
                TargetError.PROVIDER_ERROR,
                "YouTube's upload session lapsed before the upload finished; the next attempt uploads again.",
                true,
                Map.of("provider_status", status)));
    }

    private PlatformAnswer published(StreamingHttp.Answer answer) {
        JsonNode body = body(answer);
        if (!body.hasNonNull("id")) {
            return new PlatformAnswer.Unknown(new TargetError(
                    TargetError.PROVIDER_ERROR,
                    "YouTube finished the upload without naming the video.",
                    true,
                    Map.of("provider_status", answer.status())));
        }
        String id = body.get("id").asText();
        return new PlatformAnswer.Published(id, "https://www.youtube.com/watch?v=" + id);
    }

    private PlatformAnswer error(StreamingHttp.Answer answer, String what, boolean mayHaveCompleted) {
        return YouTubeErrors.answer(
                answer.status(),
                body(answer),
                PlatformResponses.retryAfterSeconds(answer.header("Retry-After")),
                what,
                mayHaveCompleted);
    }

    private JsonNode body(StreamingHttp.Answer answer) {
        return PlatformResponses.body(mapper, answer.body());
    }

    /** The first byte YouTube does not have yet: after {@code Range: bytes=0-N}, N+1; without the header, 0. */
    static long confirmed(String range) {
        Matcher matcher = range == null ? null : RANGE.matcher(range.strip());
        return matcher != null && matcher.matches() ? Long.parseLong(matcher.group(1)) + 1 : 0;
    }

    /** The video resource of the session: its snippet (title, description) and status (privacy, made for kids). */
    ObjectNode video(PublishRequest request) {
        JsonNode options = request.platformOptions() == null ? mapper.createObjectNode() : request.platformOptions();
        String text = request.text() == null ? "" : request.text();
        ObjectNode video = mapper.createObjectNode();
        ObjectNode snippet = video.putObject("snippet");
        snippet.put(
                "title",
                title(options.path("title").asText(null), text, request.media().url()));
        snippet.put("description", cutToBytes(withoutAngleBrackets(text), DESCRIPTION_MAX_BYTES));
        ObjectNode status = video.putObject("status");
        status.put("privacyStatus", options.path("privacy_status").asText("private"));
        status.put("selfDeclaredMadeForKids", options.path("made_for_kids").asBoolean(false));
        return video;
    }

    /**
     * The {@code title} option as given (posts-service refused one with {@code <} or {@code >}), else the text's first
     * non-blank line, else the media's file name: YouTube requires a title of at most 100 characters without angle
     * brackets.
     */
    static String title(String option, String text, String mediaUrl) {
        if (option != null && !option.isBlank()) {
            return cutToCharacters(withoutAngleBrackets(option.strip()), TITLE_MAX_CHARACTERS);
        }
        for (String line : text.split("\\R")) {
            if (!line.isBlank()) {
                return cutToCharacters(withoutAngleBrackets(line.strip()), TITLE_MAX_CHARACTERS);
            }
        }
        String path = URI.create(mediaUrl).getRawPath();
        String name = path == null
                ? ""
                : URLDecoder.decode(path.substring(path.lastIndexOf('/') + 1), StandardCharsets.UTF_8);
        name = name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : name;
        return name.isBlank() ? "Video" : cutToCharacters(withoutAngleBrackets(name.strip()), TITLE_MAX_CHARACTERS);
    }

    /** YouTube refuses {@code <} and {@code >} in titles and descriptions; single angle quotation marks read the same. */
    static String withoutAngleBrackets(String text) {
        return text.replace('<', '\u2039').replace('>', '\u203A');
    }

    static String cutToCharacters(String text, int max) {
        return text.codePointCount(0, text.length()) <= max ? text : text.substring(0, text.offsetByCodePoints(0, max));
    }

    /** At most {@code max} bytes of UTF-8, cut between characters. */
    static String cutToBytes(String text, int max) {
        if (text.getBytes(StandardCharsets.UTF_8).length <= max) {
            return text;
        }
        int bytes = 0;
        int end = 0;
        while (end < text.length()) {
            int codePoint = text.codePointAt(end);
            int size = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + size > max) {
                break;
            }
            bytes += size;
            end += Character.charCount(codePoint);
        }
        return text.substring(0, end);
    }

    /**
     * YouTube takes a video's MIME type or {@code application/octet-stream} for an upload and refuses anything else
     * (badContent). A host that serves the file as something else, {@code text/plain} say, is taken to serve a video
     * of unnamed format, as TikTok's publisher takes it to serve MP4; YouTube identifies the format from the bytes.
     */
    static String uploadType(String contentType) {
        String type =
                contentType == null ? "" : contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
        return type.startsWith("video/") ? type : "application/octet-stream";
    }
}
