package dev.herald.fakes.rest;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * The real header a sample media file starts with when a test asks for its dimensions (and, for a video, its
 * duration): what a media probe reads from a file's first bytes, so {@code POST /posts/validate} can be shown a 5:1
 * image or a 90-second video without storing one. PNG: the signature and {@code IHDR}; JPEG: {@code SOI} and a
 * baseline {@code SOF0}; MP4/MOV: {@code ftyp}, then {@code moov} with {@code mvhd} (duration), one video {@code trak}
 * ({@code tkhd} dimensions, {@code mdia}/{@code mdhd}/{@code hdlr vide}), then the {@code mdat} box header that spans
 * the rest of the file. The bytes after the header stay the seeded filler {@link SampleMedia} serves.
 */
final class SampleHeaders {
    private static final int TIMESCALE = 1000;

    /** What a PDF starts with (its version line): a sample {@code .pdf} begins so. */
    static final byte[] PDF = "%PDF-1.7\n".getBytes(StandardCharsets.US_ASCII);

    private SampleHeaders() {}

    /** The header of {@code name}'s type for a {@code size}-byte file; empty for a type without one here. */
    static Optional<byte[]> of(String name, int width, int height, int seconds, long size) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".png")) {
            return Optional.of(png(width, height));
        }
        if (lower.endsWith(".jpg") || lower.endsWith(".jpeg")) {
            return Optional.of(jpeg(width, height));
        }
        if (lower.endsWith(".mp4") || lower.endsWith(".mov")) {
            return Optional.of(isoMedia(lower.endsWith(".mov") ? "qt  " : "isom", width, height, seconds, size));
        }
        return Optional.empty();
    }

    private static byte[] png(int width, int height) {
        ByteBuffer ihdr = ByteBuffer.allocate(17);
        ihdr.put("IHDR".getBytes(StandardCharsets.US_ASCII)).putInt(width).putInt(height);
        ihdr.put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0); // 8-bit RGB, no interlace
        CRC32 crc = new CRC32();
        crc.update(ihdr.array());
        return ByteBuffer.allocate(8 + 4 + 17 + 4)
                .put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'})
                .putInt(13)
                .put(ihdr.array())
                .putInt((int) crc.getValue())
                .array();
    }

    private static byte[] jpeg(int width, int height) {
        ByteBuffer sof = ByteBuffer.allocate(2 + 2 + 17);
        sof.put((byte) 0xff).put((byte) 0xd8); // SOI
        sof.put((byte) 0xff).put((byte) 0xc0).putShort((short) 17).put((byte) 8);
        sof.putShort((short) height).putShort((short) width).put((byte) 3);
        for (int component = 1; component <= 3; component++) {
            sof.put((byte) component).put((byte) 0x11).put((byte) 0);
        }
        return sof.array();
    }

    private static byte[] isoMedia(String brand, int width, int height, int seconds, long size) {
        long duration = (long) seconds * TIMESCALE;
        byte[] ftyp = box(
                "ftyp",
                ByteBuffer.allocate(16)
                        .put(ascii(brand))
                        .putInt(0x200)
                        .put(ascii(brand))
                        .put(ascii("mp42"))
                        .array());
        ByteBuffer mvhd = ByteBuffer.allocate(100);
        mvhd.putInt(0).putInt(0).putInt(0).putInt(TIMESCALE).putInt((int) duration);
        mvhd.putInt(0x00010000).putShort((short) 0x0100).put(new byte[10]).put(identity());
        mvhd.put(new byte[24]).putInt(2);
        ByteBuffer tkhd = ByteBuffer.allocate(84);
        tkhd.putInt(0x00000003).putInt(0).putInt(0).putInt(1).putInt(0).putInt((int) duration);
        tkhd.put(new byte[8])
                .putShort((short) 0)
                .putShort((short) 0)
                .putShort((short) 0)
                .putShort((short) 0);
        tkhd.put(identity()).putInt(width << 16).putInt(height << 16);
        ByteBuffer mdhd = ByteBuffer.allocate(24);
        mdhd.putInt(0)
                .putInt(0)
                .putInt(0)
                .putInt(TIMESCALE)
                .putInt((int) duration)
                .putShort((short) 0x55c4);
        mdhd.putShort((short) 0);
        ByteBuffer hdlr = ByteBuffer.allocate(25);
        hdlr.putInt(0).putInt(0).put(ascii("vide")).put(new byte[12]).put((byte) 0);
        byte[] mdia = box("mdia", concat(box("mdhd", mdhd.array()), box("hdlr", hdlr.array())));
        byte[] trak = box("trak", concat(box("tkhd", tkhd.array()), mdia));
        byte[] moov = box("moov", concat(box("mvhd", mvhd.array()), trak));
        byte[] head = concat(ftyp, moov);
        long mdatSize = size - head.length;
        ByteBuffer mdat = ByteBuffer.allocate(8)
                .putInt((int) Math.min(mdatSize, Integer.MAX_VALUE))
                .put(ascii("mdat"));
        return concat(head, mdat.array());
    }

    /** The unity transformation matrix of {@code mvhd} and {@code tkhd} (no rotation). */
    private static byte[] identity() {
        return ByteBuffer.allocate(36)
                .putInt(0x00010000)
                .putInt(0)
                .putInt(0)
                .putInt(0)
                .putInt(0x00010000)
                .putInt(0)
                .putInt(0)
                .putInt(0)
                .putInt(0x40000000)
                .array();
    }

    private static byte[] box(String type, byte[] payload) {
        return ByteBuffer.allocate(8 + payload.length)
                .putInt(8 + payload.length)
                .put(ascii(type))
                .put(payload)
                .array();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
