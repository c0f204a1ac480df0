package dev.herald.common.net;

import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * A cap on the bytes Herald reads from each answer a platform sends (OWASP API10): a Netty handler in front of Vert.x's
 * HTTP/1.x client, so an answer over the cap is never buffered, whatever the platform declares. Vert.x's client and
 * the REST client on it have no such limit: both read a body whole into memory, 50 MB as readily as 50 bytes.
 * <p>
 * The handler holds each answer until its end, up to {@code maxBytes} of (decompressed) body, then hands it on
 * unchanged. An answer that declares more ({@code Content-Length}) or sends more (chunked, or a lying length) is handed
 * on at once as its status and headers with no body, {@link #TOO_LARGE_HEADER} added and {@code Connection: close}, and
 * the connection is closed: the rest is never read. The caller then sees a complete answer it can judge by its status
 * ({@link PlatformAnswerFilter} turns a successful one into {@link PlatformAnswerUnreadable}).
 * <p>
 * HTTP/2 connections are left alone (platform clients speak HTTP/1.1).
 */
public final class PlatformAnswerLimit extends ChannelInboundHandlerAdapter {
    /** Added to an answer whose body went over the cap; its value is the cap in bytes. */
    public static final String TOO_LARGE_HEADER = "Herald-Answer-Too-Large";

    /** The configuration key of the cap, and its default: 1 MiB, ample for any platform's JSON answer. */
    public static final String MAX_BYTES_KEY = "herald.platform-answers.max-bytes";

    public static final long DEFAULT_MAX_BYTES = 1 << 20;

    private static final String HANDLER_NAME = "herald-platform-answer-limit";
    private static final Set<HttpClient> CAPPED =
            Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    private final long maxBytes;
    private HttpResponse head;
    private CompositeByteBuf body;
    private boolean discarding;

    PlatformAnswerLimit(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Caps every answer {@code client} reads on the connections it opens from now on; once per client (later calls do
     * nothing). Replaces the client's connection handler, which Herald's clients do not otherwise use.
     */
    public static void install(HttpClient client, long maxBytes) {
        if (CAPPED.add(client)) {
            client.connectionHandler(connection -> cap(connection, maxBytes));
        }
    }

    static void cap(HttpConnection connection, long maxBytes) {
        if (!(connection instanceof ConnectionBase base)) {
            return;
        }
        Channel channel = base.channel();
        // An HTTP/1.x connection has Netty's client codec; an HTTP/2 one has none and is left alone.
        if (channel.pipeline().get(HttpClientCodec.class) != null
                && channel.pipeline().get(HANDLER_NAME) == null) {
            // Right before Vert.x's own handler: after the codec (and a decompressor), so decoded bytes are counted.
            channel.pipeline()
                    .addBefore(base.channelHandlerContext().name(), HANDLER_NAME, new PlatformAnswerLimit(maxBytes));
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (discarding) {
            ReferenceCountUtil.release(msg);
            return;
        }
        // Netty's client codec sends a head, then contents, the last one marked; a whole answer in one message
        // (which it never sends) passes unchanged.
        if (msg instanceof HttpResponse response && !(msg instanceof HttpContent)) {
            drop();
            head = response;
            body = ctx.alloc().compositeBuffer();
            if (HttpUtil.getContentLength(response, -1L) > maxBytes) {
                refuse(ctx);
            }
            return;
        }
        if (!(msg instanceof HttpContent content) || head == null) {
            ctx.fireChannelRead(msg);
            return;
        }
        int size = content.content().readableBytes();
        if (body.readableBytes() + (long) size > maxBytes) {
            content.release();
            refuse(ctx);
            return;
        }
        if (size > 0) {
            body.addComponent(true, content.content().retain());
        }
        boolean last = content instanceof LastHttpContent;
        LastHttpContent end = last ? new DefaultLastHttpContent() : null;
        if (last) {
            end.trailingHeaders().set(((LastHttpContent) content).trailingHeaders());
        }
        content.release();
        if (last) {
            HttpResponse answer = head;
            CompositeByteBuf whole = body;
            head = null;
            body = null;
            ctx.fireChannelRead(answer);
            if (whole.isReadable()) {
                ctx.fireChannelRead(new DefaultHttpContent(whole));
            } else {
                whole.release();
            }
            ctx.fireChannelRead(end);
        }
    }

    /** The answer's head without its body, marked, and the connection closed: nothing more is read. */
    private void refuse(ChannelHandlerContext ctx) {
        HttpResponse answer = head;
        drop();
        discarding = true;
        answer.headers()
                .remove(HttpHeaderNames.TRANSFER_ENCODING)
                .set(HttpHeaderNames.CONTENT_LENGTH, 0)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set(TOO_LARGE_HEADER, maxBytes);
        ctx.fireChannelRead(answer);
        ctx.fireChannelRead(LastHttpContent.EMPTY_LAST_CONTENT);
        ctx.close();
    }

    private void drop() {
        head = null;
        if (body != null) {
            body.release();
            body = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        drop();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        drop();
    }
}
