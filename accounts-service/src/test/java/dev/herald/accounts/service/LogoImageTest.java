package dev.herald.accounts.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LogoImageTest {
    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    @Test
    void pngJpegAndWebpAreKnownByTheirFirstBytes() {
        assertThat(LogoImage.contentType(bytes(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0)))
                .contains("image/png");
        assertThat(LogoImage.contentType(bytes(0xff, 0xd8, 0xff, 0xe0))).contains("image/jpeg");
        assertThat(LogoImage.contentType("RIFF\0\0\0\0WEBPVP8 ".getBytes(StandardCharsets.ISO_8859_1)))
                .contains("image/webp");
    }

    @Test
    void svgGifHtmlAndTruncatedSignaturesAreRefused() {
        assertThat(LogoImage.contentType(
                        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>".getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
        assertThat(LogoImage.contentType("GIF89a".getBytes(StandardCharsets.US_ASCII)))
                .isEmpty();
        assertThat(LogoImage.contentType("<html>".getBytes(StandardCharsets.US_ASCII)))
                .isEmpty();
        assertThat(LogoImage.contentType(bytes(0x89, 'P', 'N', 'G'))).isEmpty();
        assertThat(LogoImage.contentType("RIFF\0\0\0\0WAVE".getBytes(StandardCharsets.ISO_8859_1)))
                .isEmpty();
        assertThat(LogoImage.contentType(new byte[0])).isEmpty();
    }

    @Test
    void anImageIsNamedByItsSha256() {
        byte[] png = bytes(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
        assertThat(LogoImage.sniff(png).orElseThrow().sha256())
                .hasSize(64)
                .isEqualTo(LogoImage.sniff(png.clone()).orElseThrow().sha256());
    }
}
