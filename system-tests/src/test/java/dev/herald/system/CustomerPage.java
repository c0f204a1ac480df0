package dev.herald.system;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * A customer's own page on 127.0.0.1 (the site the suite's gateway is on, so the connect page's SameSite=Lax cookie
 * travels in the frame) that frames a hosted page: {@code /?src=<url>} shows it in {@code iframe#connect}, 150 px
 * tall until a script makes it fit, then runs {@code script}.
 */
final class CustomerPage implements AutoCloseable {
    private final HttpServer server;

    private CustomerPage(HttpServer server) {
        this.server = server;
    }

    static CustomerPage start(String script) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String src = URLDecoder.decode(
                    exchange.getRequestURI().getRawQuery().substring("src=".length()), StandardCharsets.UTF_8);
            byte[] html = ("<!DOCTYPE html><html lang=\"en\"><head><title>Customer app</title></head><body>"
                            + "<h1>Customer app</h1><iframe id=\"connect\" title=\"Connect accounts\" src=\"" + src
                            + "\" width=\"900\" height=\"150\"></iframe><script>" + script + "</script></body></html>")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "text/html;charset=UTF-8");
            exchange.sendResponseHeaders(200, html.length);
            exchange.getResponseBody().write(html);
            exchange.close();
        });
        server.start();
        return new CustomerPage(server);
    }

    /** The page's origin, the one a session's {@code embed_origin} names. */
    String origin() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The page framing {@code src}. */
    String framing(String src) {
        return origin() + "/?src=" + URLEncoder.encode(src, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
