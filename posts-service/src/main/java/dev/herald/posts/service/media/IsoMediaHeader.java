package dev.herald.posts.service.media;

import java.time.Duration;
import java.util.Set;

/**
 * Reads an MP4 or MOV (ISO base media file format, ISO/IEC 14496-12; QuickTime is its ancestor and shares the boxes
 * read here): the brand in {@code ftyp}; in {@code moov}, {@code mvhd}'s duration and time scale, and for the video
 * track ({@code mdia/hdlr} {@code vide}) {@code tkhd}'s width, height and transformation matrix (a 90 or 270 degree
 * rotation swaps them, so a phone's portrait video reads as portrait) and {@code stsd}'s first sample entry as the
 * codec. Boxes are walked by their sizes over {@link HeaderBytes}, never copied: a size that is too small stops the
 * walk, a size beyond what was read only bounds it, and each walk takes a bounded number of steps.
 * <p>
 * A file written for download puts {@code moov} after {@code mdat}: the walk then stops at the first top-level box the
 * bytes do not reach, and {@link MediaHeader.Read#resumeAt} says where the probe should read next (the {@code moov}
 * itself, not the last bytes of the file, so a {@code moov} larger than one read still starts in it).
 */
final class IsoMediaHeader {
    private static final Set<String> TOP_LEVEL = Set.of("ftyp", "moov", "mdat", "free", "skip", "wide", "pnot");
    private static final Set<String> IMAGE_BRANDS = Set.of("heic", "heix", "mif1", "msf1", "avif", "avis");
    private static final Set<String> AUDIO_BRANDS = Set.of("M4A ", "M4B ", "M4P ");
    private static final int MAX_STEPS = 10_000;
    private static final long TO_END = Long.MAX_VALUE;

    private IsoMediaHeader() {}

    /** Whether the bytes start like an ISO BMFF file (a known top-level box type at offset 4). */
    static boolean recognises(HeaderBytes bytes) {
        String type = bytes.fourCc(4);
        long size = bytes.u32(0);
        return type != null && TOP_LEVEL.contains(type) && (size == 0 || size == 1 || size >= 8);
    }

    /**
     * What the boxes read say; {@link MediaHeader.Read#resumeAt} is the offset of the first top-level box not read when
     * {@code moov} was not found.
     */
    static MediaHeader.Read read(HeaderBytes bytes) {
        String brand = null;
        Movie movie = null;
        long offset = 0;
        long resumeAt = -1;
        for (int step = 0; step < MAX_STEPS; step++) {
            Box box = box(bytes, offset);
            if (box == null) {
                resumeAt = offset; // not read yet: the probe may read from here
                break;
            }
            if (box == Box.MALFORMED) {
                break;
            }
            if (box.type.equals("ftyp")) {
                brand = bytes.fourCc(box.payload);
            } else if (box.type.equals("moov")) {
                movie = new Movie();
                movie.read(bytes, box.payload, Math.min(box.end, bytes.readableEnd(box.start)));
                break;
            }
            if (box.end == TO_END) {
                break; // the last box of the file: nothing follows it
            }
            offset = box.end;
        }
        String container = brand == null || brand.equals("qt  ")
                ? "mov"
                : IMAGE_BRANDS.contains(brand) ? "heif" : AUDIO_BRANDS.contains(brand) ? "m4a" : "mp4";
        MediaFacts.Kind kind = container.equals("heif")
                ? MediaFacts.Kind.IMAGE
                : container.equals("m4a") ? null : MediaFacts.Kind.VIDEO;
        if (movie == null) {
            return new MediaHeader.Read(container, kind, null, null, null, null, resumeAt);
        }
        Track video = movie.video();
        return new MediaHeader.Read(
                container,
                kind,
                video == null ? null : video.codec,
                video == null ? null : video.displayWidth(),
                video == null ? null : video.displayHeight(),
                movie.duration(),
                -1);
    }

    /** A box's header: its type, where its payload starts and where it ends ({@link #TO_END}: the end of the file). */
    private record Box(String type, long start, long payload, long end) {
        static final Box MALFORMED = new Box("", -1, -1, -1);
    }

    private static Box box(HeaderBytes bytes, long offset) {
        long size = bytes.u32(offset);
        String type = bytes.fourCc(offset + 4);
        if (size < 0 || type == null) {
            return null;
        }
        if (size == 1) {
            long large = bytes.u64(offset + 8);
            if (large < 0) {
                return bytes.has(offset + 8, 8) ? Box.MALFORMED : null;
            }
            return large < 16 || offset + large < offset
                    ? Box.MALFORMED
                    : new Box(type, offset, offset + 16, offset + large);
        }
        if (size == 0) {
            return new Box(type, offset, offset + 8, TO_END);
        }
        return size < 8 ? Box.MALFORMED : new Box(type, offset, offset + 8, offset + size);
    }

    /** Calls {@code visitor} for each child box in {@code [start, end)} until the bytes or the steps run out. */
    private static void children(HeaderBytes bytes, long start, long end, ChildVisitor visitor) {
        long offset = start;
        for (int step = 0; step < MAX_STEPS && offset + 8 <= end; step++) {
            Box box = box(bytes, offset);
            if (box == null || box == Box.MALFORMED) {
                return;
            }
            visitor.visit(box.type, box.payload, Math.min(box.end, end));
            if (box.end >= end) {
                return;
            }
            offset = box.end;
        }
    }

    @FunctionalInterface
    private interface ChildVisitor {
        void visit(String type, long payload, long end);
    }

    /** {@code moov}: the movie header and the first video-like tracks. */
    private static final class Movie {
        private long timescale = -1;
        private long duration = -1;
        private long fragmentDuration = -1;
        private Track firstVideo;
        private Track firstVisual;

        void read(HeaderBytes bytes, long start, long end) {
            children(bytes, start, end, (type, payload, boxEnd) -> {
                switch (type) {
                    case "mvhd" -> {
                        boolean v1 = bytes.u8(payload) == 1;
                        timescale = bytes.u32(payload + (v1 ? 20 : 12));
                        duration = v1 ? bytes.u64(payload + 24) : bytes.u32(payload + 16);
                        if (!v1 && duration == 0xffffffffL) {
                            duration = -1; // "unknown" in a version 0 header
                        }
                    }
                    case "mvex" ->
                        children(bytes, payload, boxEnd, (child, childPayload, childEnd) -> {
                            if (child.equals("mehd")) {
                                // A fragmented file's total duration, when mvhd leaves it at zero.
                                fragmentDuration = bytes.u8(childPayload) == 1
                                        ? bytes.u64(childPayload + 4)
                                        : bytes.u32(childPayload + 4);
                            }
                        });
                    case "trak" -> {
                        Track track = Track.read(bytes, payload, boxEnd);
                        if (firstVideo == null && "vide".equals(track.handler)) {
                            firstVideo = track;
                        }
                        if (firstVisual == null && track.width > 0 && track.height > 0) {
                            firstVisual = track;
                        }
                    }
                    default -> {}
                }
            });
        }

        Track video() {
            return firstVideo != null ? firstVideo : firstVisual;
        }

        Duration duration() {
            long units = duration > 0 ? duration : fragmentDuration;
            if (timescale <= 0 || units <= 0) {
                return null;
            }
            // Whole milliseconds, without overflow for any 64-bit duration.
            long seconds = units / timescale;
            long millis = (units % timescale) * 1000 / timescale;
            return seconds > Duration.ofDays(365).toSeconds() ? null : Duration.ofSeconds(seconds, millis * 1_000_000);
        }
    }

    /** One {@code trak}: its handler, its header's size and rotation, its first sample entry. */
    private static final class Track {
        private String handler;
        private String codec;
        private int width;
        private int height;
        private boolean quarterTurn;

        static Track read(HeaderBytes bytes, long start, long end) {
            Track track = new Track();
            children(bytes, start, end, (type, payload, boxEnd) -> {
                if (type.equals("tkhd")) {
                    track.header(bytes, payload);
                } else if (type.equals("mdia")) {
                    track.media(bytes, payload, boxEnd);
                }
            });
            return track;
        }

        private void header(HeaderBytes bytes, long payload) {
            boolean v1 = bytes.u8(payload) == 1;
            long matrix = payload + (v1 ? 52 : 40);
            Integer a = bytes.s32(matrix);
            Integer b = bytes.s32(matrix + 4);
            long w = bytes.u32(matrix + 36);
            long h = bytes.u32(matrix + 40);
            if (w < 0 || h < 0) {
                return;
            }
            width = (int) (w >>> 16); // 16.16 fixed point
            height = (int) (h >>> 16);
            // {a b u / c d v / x y w}: a quarter turn has a = d = 0 and b = -c = +-1, so |b| outweighs |a|.
            quarterTurn = a != null && b != null && Math.abs((long) b) > Math.abs((long) a);
        }

        private void media(HeaderBytes bytes, long start, long end) {
            children(bytes, start, end, (type, payload, boxEnd) -> {
                if (type.equals("hdlr")) {
                    handler = bytes.fourCc(payload + 8);
                } else if (type.equals("minf")) {
                    children(bytes, payload, boxEnd, (minf, minfPayload, minfEnd) -> {
                        if (minf.equals("stbl")) {
                            children(bytes, minfPayload, minfEnd, (stbl, stblPayload, stblEnd) -> {
                                if (stbl.equals("stsd") && bytes.u32(stblPayload + 4) > 0) {
                                    codec = bytes.fourCc(stblPayload + 12); // the first entry's type
                                }
                            });
                        }
                    });
                }
            });
        }

        Integer displayWidth() {
            return width <= 0 || height <= 0 ? null : quarterTurn ? height : width;
        }

        Integer displayHeight() {
            return width <= 0 || height <= 0 ? null : quarterTurn ? width : height;
        }
    }
}
