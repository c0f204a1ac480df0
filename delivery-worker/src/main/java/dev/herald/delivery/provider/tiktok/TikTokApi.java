package dev.herald.delivery.provider.tiktok;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.wire.ProviderAccess;
import dev.herald.delivery.config.TikTokConfig;
import dev.herald.delivery.provider.PlatformResponses;
import dev.herald.delivery.provider.media.MediaIngest;
import dev.herald.delivery.provider.media.StreamingHttp;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.streams.ReadStream;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * TikTok's Content Posting API as {@link TikTokPublisher} calls it (base {@code herald.publishers.tiktok.api-url}, default
 * {@code https://open.tiktokapis.com}): creator info, the Direct Post video init, the photo post's content init, its chunk uploads and its status. On
 * media ingest's HTTP client ({@link StreamingHttp}), which the chunks stream through anyway and which sends TikTok's
 * paths with their trailing slashes exactly as documented. Answers come back as they are; {@link TikTokErrors} reads
 * the failures.
 */
@ApplicationScoped
public class TikTokApi {
    static final String CREATOR_INFO = "/v2/post/publish/creator_info/query/";
    static final String VIDEO_INIT = "/v2/post/publish/video/init/";
    static final String CONTENT_INIT = "/v2/post/publish/content/init/";
    static final String STATUS = "/v2/post/publish/status/fetch/";

    private final StreamingHttp http;
    private final TikTokConfig config;
    private final ObjectMapper mapper;

    public TikTokApi(MediaIngest ingest, TikTokConfig config, ObjectMapper mapper) {
        this.http = ingest.http();
        this.config = config;
        this.mapper = mapper;
    }

    /** An answer's JSON body, as {@link PlatformResponses#body} reads it. */
    JsonNode json(StreamingHttp.Answer answer) {
        return PlatformResponses.body(mapper, answer.body());
    }

    /** What the creator may post now: privacy level options, disabled interactions, the longest video. */
    public Uni<StreamingHttp.Answer> creatorInfo(ProviderAccess access) {
        return http.send(HttpMethod.POST, endpoint(CREATOR_INFO), headers(access), Buffer.buffer());
    }

    /** Starts a Direct Post ({@code post_info}, {@code source_info}); {@code data.publish_id} and {@code data.upload_url}. */
    public Uni<StreamingHttp.Answer> initVideo(ProviderAccess access, ObjectNode body) {
        return http.send(HttpMethod.POST, endpoint(VIDEO_INIT), headers(access), Buffer.buffer(body.toString()));
    }

    /** Starts a photo post ({@code media_type PHOTO}, TikTok pulls the photos from their URLs); {@code data.publish_id}. */
    public Uni<StreamingHttp.Answer> initContent(ProviderAccess access, ObjectNode body) {
        return http.send(HttpMethod.POST, endpoint(CONTENT_INIT), headers(access), Buffer.buffer(body.toString()));
    }

    /** A post's {@code status}, {@code fail_reason}, {@code publicaly_available_post_id} and {@code uploaded_bytes}. */
    public Uni<StreamingHttp.Answer> status(ProviderAccess access, String publishId) {
        ObjectNode body = mapper.createObjectNode().put("publish_id", publishId);
        return http.send(HttpMethod.POST, endpoint(STATUS), headers(access), Buffer.buffer(body.toString()));
    }

    /**
     * Bytes {@code first}..{@code last} of {@code total} to the upload URL init answered (it carries its own upload
     * token; no Authorization), streamed from {@code chunk}; {@code closeSource} drops the source if the transfer breaks.
     */
    public Uni<StreamingHttp.Answer> uploadChunk(
            String uploadUrl,
            String contentType,
            long first,
            long last,
            long total,
            ReadStream<Buffer> chunk,
            Runnable closeSource) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", contentType);
        headers.put("Content-Range", "bytes " + first + "-" + last + "/" + total);
        return http.stream(
                HttpMethod.PUT, StreamingHttp.Endpoint.of(uploadUrl), headers, last - first + 1, chunk, closeSource);
    }

    private StreamingHttp.Endpoint endpoint(String path) {
        String base = config.apiUrl().endsWith("/")
                ? config.apiUrl().substring(0, config.apiUrl().length() - 1)
                : config.apiUrl();
        return StreamingHttp.Endpoint.of(base + path);
    }

    private static Map<String, String> headers(ProviderAccess access) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", PlatformResponses.bearer(access));
        headers.put("Content-Type", "application/json; charset=UTF-8");
        return headers;
    }
}
