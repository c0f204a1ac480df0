package dev.herald.posts.service.media;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * What a media file's first bytes say: its container, whether it is an image or a video, and where cheap its
 * dimensions and duration. Images: PNG ({@code IHDR}), JPEG (the first {@code SOFn} marker, and the EXIF orientation in
 * {@code APP1}, so a phone's portrait photo reads as portrait), GIF (the logical screen), WebP ({@code VP8},
 * {@code VP8L}, {@code VP8X}), BMP; recognised without dimensions: TIFF, HEIF. Videos: MP4 and MOV
 * ({@link IsoMediaHeader}); recognised without dimensions: WebM/Matroska, AVI.
 * <p>
 * Hand-written on purpose. The header is at most 128 KiB read over HTTP; a library that reads video pulls ffmpeg or
 * megabytes of code. The one small candidate, metadata-extractor (com.drewnoakes 2.19.0, which resolves here), reads
 * MP4 and images but sizes each box's payload array from the box's own length field
 * ({@code StreamReader.getBytes((int) size - 8)}: a hostile 2 GiB {@code mvhd} asks for 2 GiB), reads MOV through a
 * separate QuickTime reader, and reads a stream front to back, so a {@code moov} at the end would need the whole file.
 * This parser reads absolute offsets over the bytes it was given ({@link HeaderBytes}) and allocates nothing from a
 * length field.
 */
public final class MediaHeader {
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    private static final byte[] GIF87 = "GIF87a".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] GIF89 = "GIF89a".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PDF = "%PDF-".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EBML = {0x1a, 0x45, (byte) 0xdf, (byte) 0xa3};
    private static final byte[] EXIF = {'E', 'x', 'i', 'f', 0, 0};
    private static final int MAX_JPEG_SEGMENTS = 4096;
    private static final int EXIF_ORIENTATION = 0x0112;

    private MediaHeader() {}

    /**
     * What the header says; every field null when unknown.
     *
     * @param resumeAt where to read next when what the reader needs lies past the bytes it was given (an MP4/MOV's
     *     {@code moov} after {@code mdat}, a JPEG's frame header after large metadata segments); else -1
     */
    public record Read(
            String container,
            MediaFacts.Kind kind,
            String codec,
            Integer width,
            Integer height,
            Duration duration,
            long resumeAt) {
        static final Read UNKNOWN = new Read(null, null, null, null, null, null, -1);

        static Read image(String container, Integer width, Integer height) {
            boolean known = width != null && height != null && width > 0 && height > 0;
            return new Read(
                    container, MediaFacts.Kind.IMAGE, null, known ? width : null, known ? height : null, null, -1);
        }
    }

    /** Reads a file's first bytes. */
    public static Read read(byte[] head) {
        return read(HeaderBytes.of(head));
    }

    /** Reads a file's first bytes and {@code later}, read from {@code laterOffset} (an MP4/MOV's {@code moov}). */
    public static Read read(byte[] head, long laterOffset, byte[] later) {
        return read(HeaderBytes.of(head).with(laterOffset, later));
    }

    static Read read(HeaderBytes bytes) {
        if (bytes.startsWith(0, PNG) && "IHDR".equals(bytes.fourCc(12))) {
            return Read.image("png", positive(bytes.u32(16)), positive(bytes.u32(20)));
        }
        if (bytes.u8(0) == 0xff && bytes.u8(1) == 0xd8 && bytes.u8(2) == 0xff) {
            return jpeg(bytes);
        }
        if (bytes.startsWith(0, GIF87) || bytes.startsWith(0, GIF89)) {
            return Read.image("gif", positive(bytes.u16le(6)), positive(bytes.u16le(8)));
        }
        if ("RIFF".equals(bytes.fourCc(0)) && "WEBP".equals(bytes.fourCc(8))) {
            return webp(bytes);
        }
        if ("RIFF".equals(bytes.fourCc(0)) && "AVI ".equals(bytes.fourCc(8))) {
            return new Read("avi", MediaFacts.Kind.VIDEO, null, null, null, null, -1);
        }
        if (bytes.startsWith(0, EBML)) {
            return new Read("webm", MediaFacts.Kind.VIDEO, null, null, null, null, -1);
        }
        if (bytes.u8(0) == 'B' && bytes.u8(1) == 'M' && bytes.u32le(14) >= 12) {
            long height = bytes.u32le(22);
            // A negative height is a top-down bitmap of that many rows.
            return Read.image(
                    "bmp", positive(bytes.u32le(18)), positive(height > 0x7fffffffL ? (1L << 32) - height : height));
        }
        if ("II*\0".equals(bytes.fourCc(0)) || "MM\0*".equals(bytes.fourCc(0))) {
            return Read.image("tiff", null, null);
        }
        if (bytes.startsWith(0, PDF)) {
            // A PDF's page count lies in its page tree, anywhere in the file: not read from a header.
            return new Read("pdf", MediaFacts.Kind.DOCUMENT, null, null, null, null, -1);
        }
        if (IsoMediaHeader.recognises(bytes)) {
            return IsoMediaHeader.read(bytes);
        }
        return Read.UNKNOWN;
    }

    private static Read webp(HeaderBytes bytes) {
        String chunk = bytes.fourCc(12);
        if ("VP8 ".equals(chunk) && bytes.u8(23) == 0x9d && bytes.u8(24) == 0x01 && bytes.u8(25) == 0x2a) {
            int width = bytes.u16le(26);
            int height = bytes.u16le(28);
            return Read.image("webp", width < 0 ? null : width & 0x3fff, height < 0 ? null : height & 0x3fff);
        }
        if ("VP8L".equals(chunk) && bytes.u8(20) == 0x2f) {
            long bits = bytes.u32le(21);
            return bits < 0
                    ? Read.image("webp", null, null)
                    : Read.image("webp", (int) (bits & 0x3fff) + 1, (int) ((bits >> 14) & 0x3fff) + 1);
        }
        if ("VP8X".equals(chunk)) {
            int width = bytes.u24le(24);
            int height = bytes.u24le(27);
            return Read.image("webp", width < 0 ? null : width + 1, height < 0 ? null : height + 1);
        }
        return Read.image("webp", null, null);
    }

    /** Walks the JPEG's marker segments to the first frame header; each step moves forward by at least one byte. */
    private static Read jpeg(HeaderBytes bytes) {
        long offset = 2;
        int orientation = 1;
        for (int step = 0; step < MAX_JPEG_SEGMENTS; step++) {
            long segment = offset;
            if (!bytes.has(segment, 4)) {
                // Metadata (EXIF thumbnails, ICC profiles) can push the frame header past the bytes read: read on here.
                return new Read("jpeg", MediaFacts.Kind.IMAGE, null, null, null, null, segment);
            }
            if (bytes.u8(offset) != 0xff) {
                break;
            }
            int marker = bytes.u8(offset + 1);
            if (marker == 0xff) {
                offset++; // fill byte
                continue;
            }
            offset += 2;
            if (marker < 0 || marker == 0xd9 || marker == 0xda) {
                break; // cut off, end of image, or the scan began without a frame header
            }
            if (marker == 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
                continue; // markers without a length
            }
            int length = bytes.u16(offset);
            if (length < 2) {
                break;
            }
            if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc) {
                int height = bytes.u16(offset + 3);
                int width = bytes.u16(offset + 5);
                if (width < 0 || height < 0) {
                    return new Read("jpeg", MediaFacts.Kind.IMAGE, null, null, null, null, segment);
                }
                // EXIF orientations 5 to 8 turn the picture a quarter: displayed, width and height trade places.
                boolean quarterTurn = orientation >= 5 && orientation <= 8;
                return Read.image("jpeg", quarterTurn ? height : width, quarterTurn ? width : height);
            }
            if (marker == 0xe1 && bytes.startsWith(offset + 2, EXIF)) {
                orientation = exifOrientation(bytes, offset + 8, offset + length);
            }
            offset += length;
        }
        return Read.image("jpeg", null, null);
    }

    /** IFD0's Orientation tag in the TIFF structure at {@code tiff}, or 1 (as stored) when absent or unreadable. */
    private static int exifOrientation(HeaderBytes bytes, long tiff, long end) {
        String order = bytes.fourCc(tiff);
        boolean little = "II*\0".equals(order);
        if (!little && !"MM\0*".equals(order)) {
            return 1;
        }
        long ifd = tiff + (little ? bytes.u32le(tiff + 4) : bytes.u32(tiff + 4));
        int count = little ? bytes.u16le(ifd) : bytes.u16(ifd);
        for (int i = 0; i < count && i < 512; i++) {
            long entry = ifd + 2 + 12L * i;
            if (entry + 12 > end) {
                break;
            }
            int tag = little ? bytes.u16le(entry) : bytes.u16(entry);
            if (tag == EXIF_ORIENTATION) {
                int value = little ? bytes.u16le(entry + 8) : bytes.u16(entry + 8);
                return value < 1 || value > 8 ? 1 : value;
            }
        }
        return 1;
    }

    private static Integer positive(long value) {
        return value <= 0 || value > Integer.MAX_VALUE ? null : (int) value;
    }
}
