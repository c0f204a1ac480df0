package dev.herald.posts.service.media;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.imageio.ImageIO;

/**
 * Real media files made in the test: images written by the JDK's ImageIO (PNG, JPEG, GIF), WebP headers and ISO BMFF
 * files (MP4/MOV) written box by box as the specifications lay them out. No ffmpeg: the video files carry an
 * {@code mdat} of zeros, which is all a header reader needs.
 */
final class SampleMedia {
    private SampleMedia() {}

    static byte[] image(String format, int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(image, format, out)) {
                throw new IllegalStateException("no ImageIO writer for " + format);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A JPEG with an EXIF APP1 segment right after SOI whose IFD0 says {@code orientation}. */
    static byte[] jpegWithOrientation(int width, int height, int orientation, boolean littleEndian) {
        byte[] jpeg = image("jpeg", width, height);
        ByteBuffer tiff = ByteBuffer.allocate(8 + 2 + 12 + 4)
                .order(littleEndian ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        tiff.put(littleEndian ? new byte[] {'I', 'I'} : new byte[] {'M', 'M'});
        tiff.putShort((short) 42).putInt(8); // IFD0 right after the header
        tiff.putShort((short) 1); // one entry
        tiff.putShort((short) 0x0112)
                .putShort((short) 3)
                .putInt(1)
                .putShort((short) orientation)
                .putShort((short) 0);
        tiff.putInt(0); // no next IFD
        byte[] exif = concat("Exif\0\0".getBytes(StandardCharsets.ISO_8859_1), tiff.array());
        ByteBuffer app1 = ByteBuffer.allocate(4 + exif.length);
        app1.put((byte) 0xff)
                .put((byte) 0xe1)
                .putShort((short) (exif.length + 2))
                .put(exif);
        return concat(Arrays.copyOf(jpeg, 2), app1.array(), Arrays.copyOfRange(jpeg, 2, jpeg.length));
    }

    /** A JPEG whose frame header comes after {@code segments} APP2 segments of 30,000 bytes each (ICC profiles). */
    static byte[] jpegAfterMetadata(int width, int height, int segments) {
        byte[] jpeg = image("jpeg", width, height);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(jpeg, 0, 2);
        for (int i = 0; i < segments; i++) {
            byte[] segment = new byte[4 + 30_000];
            ByteBuffer.wrap(segment).put((byte) 0xff).put((byte) 0xe2).putShort((short) (30_000 + 2));
            out.writeBytes(segment);
        }
        out.write(jpeg, 2, jpeg.length - 2);
        return out.toByteArray();
    }

    /** A lossy WebP's first bytes: RIFF, WEBP, a {@code VP8 } chunk with a key frame's header. */
    static byte[] webpLossy(int width, int height) {
        ByteBuffer bytes = riffWebp("VP8 ", 10);
        bytes.put(new byte[] {0x10, 0x02, 0x00}); // frame tag: a key frame
        bytes.put(new byte[] {(byte) 0x9d, 0x01, 0x2a});
        bytes.putShort((short) width).putShort((short) height);
        return bytes.array();
    }

    /** A lossless WebP's first bytes: signature 0x2f, then 14 bits of width - 1 and 14 of height - 1. */
    static byte[] webpLossless(int width, int height) {
        ByteBuffer bytes = riffWebp("VP8L", 5);
        bytes.put((byte) 0x2f);
        bytes.putInt((width - 1) | ((height - 1) << 14));
        return bytes.array();
    }

    /** An extended WebP's first bytes: {@code VP8X} with the canvas size in 24-bit fields. */
    static byte[] webpExtended(int width, int height) {
        ByteBuffer bytes = riffWebp("VP8X", 10);
        bytes.putInt(0);
        bytes.put((byte) (width - 1)).put((byte) ((width - 1) >> 8)).put((byte) ((width - 1) >> 16));
        bytes.put((byte) (height - 1)).put((byte) ((height - 1) >> 8)).put((byte) ((height - 1) >> 16));
        return bytes.array();
    }

    private static ByteBuffer riffWebp(String chunk, int chunkLength) {
        ByteBuffer bytes = ByteBuffer.allocate(20 + chunkLength).order(ByteOrder.LITTLE_ENDIAN);
        bytes.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(12 + chunkLength);
        bytes.put("WEBP".getBytes(StandardCharsets.US_ASCII));
        bytes.put(chunk.getBytes(StandardCharsets.US_ASCII)).putInt(chunkLength);
        return bytes;
    }

    /** What an ISO BMFF sample file holds. */
    record Movie(
            String brand,
            int width,
            int height,
            long timescale,
            long duration,
            boolean quarterTurn,
            boolean moovFirst,
            int mdatBytes,
            boolean version1) {
        static Movie mp4(int width, int height, double seconds) {
            return new Movie("isom", width, height, 1000, Math.round(seconds * 1000), false, true, 1024, false);
        }

        Movie brand(String value) {
            return new Movie(value, width, height, timescale, duration, quarterTurn, moovFirst, mdatBytes, version1);
        }

        Movie turned() {
            return new Movie(brand, width, height, timescale, duration, true, moovFirst, mdatBytes, version1);
        }

        Movie moovLast(int mdat) {
            return new Movie(brand, width, height, timescale, duration, quarterTurn, false, mdat, version1);
        }

        Movie v1() {
            return new Movie(brand, width, height, timescale, duration, quarterTurn, moovFirst, mdatBytes, true);
        }

        /** ftyp, then moov and mdat in the order asked. */
        byte[] bytes() {
            byte[] ftyp = box("ftyp", concat(ascii(brand), u32(0), ascii(brand), ascii("mp41")));
            byte[] moov = box("moov", concat(mvhd(), soundTrack(), videoTrack()));
            byte[] mdat = box("mdat", new byte[mdatBytes]);
            return moovFirst ? concat(ftyp, moov, mdat) : concat(ftyp, mdat, moov);
        }

        private byte[] mvhd() {
            ByteBuffer body = ByteBuffer.allocate(version1 ? 112 : 100);
            body.putInt(version1 ? 0x01000000 : 0);
            if (version1) {
                body.putLong(0).putLong(0).putInt((int) timescale).putLong(duration);
            } else {
                body.putInt(0).putInt(0).putInt((int) timescale).putInt((int) duration);
            }
            return box("mvhd", body.array());
        }

        /** An audio track first, so the reader must pick the video track by its handler. */
        private byte[] soundTrack() {
            return box("trak", concat(tkhd(0, 0, false), mdia("soun", "mp4a")));
        }

        private byte[] videoTrack() {
            return box("trak", concat(tkhd(width, height, quarterTurn), mdia("vide", "avc1")));
        }

        private byte[] tkhd(int w, int h, boolean turned) {
            ByteBuffer body = ByteBuffer.allocate(version1 ? 96 : 84);
            body.putInt(version1 ? 0x01000003 : 3);
            if (version1) {
                body.putLong(0).putLong(0).putInt(1).putInt(0).putLong(duration);
            } else {
                body.putInt(0).putInt(0).putInt(1).putInt(0).putInt((int) duration);
            }
            body.putLong(0)
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putShort((short) 0);
            int one = 0x00010000;
            int[] matrix = turned
                    ? new int[] {0, one, 0, -one, 0, 0, h << 16, 0, 0x40000000}
                    : new int[] {one, 0, 0, 0, one, 0, 0, 0, 0x40000000};
            for (int value : matrix) {
                body.putInt(value);
            }
            body.putInt(w << 16).putInt(h << 16);
            return box("tkhd", body.array());
        }

        private static byte[] mdia(String handler, String sampleEntry) {
            byte[] hdlr = box("hdlr", concat(u32(0), u32(0), ascii(handler), new byte[12], new byte[] {0}));
            byte[] entry = box(sampleEntry, new byte[16]);
            byte[] stsd = box("stsd", concat(u32(0), u32(1), entry));
            byte[] stbl = box("stbl", stsd);
            return box("mdia", concat(hdlr, box("minf", stbl)));
        }
    }

    static byte[] box(String type, byte[] payload) {
        return concat(u32(8 + payload.length), ascii(type), payload);
    }

    static byte[] u32(long value) {
        return ByteBuffer.allocate(4).putInt((int) value).array();
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
