package dev.herald.delivery.provider.youtube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.time.Timestamps;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.common.wire.TargetError;
import dev.herald.delivery.config.YouTubeConfig;
import dev.herald.delivery.provider.PlatformAnswer;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.provider.media.MediaIngest;
import dev.herald.delivery.provider.media.MediaSource;
import dev.herald.delivery.provider.media.StreamingHttp;
import dev.herald.delivery.repository.YouTubeUploadSessionStatements;
import dev.herald.delivery.repository.YouTubeUploadSessionStatements.Session;
import io.smallrye.mutiny.Uni;
import io.vertx.core.VertxException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * A video's resumable upload session at YouTube, kept per target ({@code youtube_upload_sessions}) for
 * {@link YouTubePublisher}: opened with the video resource, then the bytes in one {@code PUT}, and asked where it
 * stands ({@code Content-Range: bytes *}{@code /<size>}) before any later byte is sent, so an upload resumes rather
 * than starts over and a finished one is never made twice.
 */
@ApplicationScoped
public class YouTubeUploadSession {
    private static final Logger LOG = Logger.getLogger(YouTubeUploadSession.class);
    private static final Pattern RANGE = Pattern.compile("^bytes=0-(\\d+)$");

    private final StreamingHttp http;
    private final MediaSource sources;
    private final YouTubeUploadSessionStatements sessions;
    private final YouTubeConfig config;
    private final ObjectMapper mapper;
    private final Clock clock;

    public YouTubeUploadSession(
            MediaIngest ingest,
            YouTubeUploadSessionStatements sessions,
            YouTubeConfig config,
            ObjectMapper mapper,
            Clock clock) {
        this.http = ingest.http();
        this.sources = ingest.sources();
        this.sessions = sessions;
        this.config = config;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** What the target's session made, asked without sending a byte: the video, or nothing (NotFound). */
    Uni<PlatformAnswer> outcome(PublishRequest request, ProviderAccess access) {
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
    Uni<PlatformAnswer> upload(
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
                                        : Uni.createFrom().item(YouTubeErrors.lapsed(answer.status())));
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
                        return sessions.forget(request.idempotencyToken())
                                .replaceWith(YouTubeErrors.lapsed(answer.status()));
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
