package dev.herald.system;

import com.sun.net.httpserver.HttpServer;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import javax.imageio.ImageIO;

/**
 * A customer's web server on 127.0.0.1 that serves its logo, a real PNG (a rounded square in the brand's colour with
 * its initials), for {@code PUT /branding}'s {@code logo_url}; the suite lets Herald fetch logos from loopback.
 */
final class LogoHost implements AutoCloseable {
    private final HttpServer server;
    private final byte[] png;

    private LogoHost(HttpServer server, byte[] png) {
        this.server = server;
        this.png = png;
    }

    static LogoHost start(Color brand, String initials) throws IOException {
        byte[] png = drawLogo(brand, initials);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/brand/logo.png", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "image/png");
            exchange.sendResponseHeaders(200, png.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(png);
            }
        });
        server.start();
        return new LogoHost(server, png);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/brand/logo.png";
    }

    byte[] png() {
        return png.clone();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private static byte[] drawLogo(Color brand, String initials) {
        BufferedImage image = new BufferedImage(96, 96, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(brand);
            g.fillRoundRect(0, 0, 96, 96, 28, 28);
            g.setColor(Color.WHITE);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 40));
            int width = g.getFontMetrics().stringWidth(initials);
            g.drawString(initials, (96 - width) / 2, 62);
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
