package dev.herald.posts.service.media;

import static dev.herald.posts.service.media.SampleMedia.box;
import static dev.herald.posts.service.media.SampleMedia.concat;
import static dev.herald.posts.service.media.SampleMedia.u32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.herald.posts.service.media.SampleMedia.Movie;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The header reader on real files made here, and on truncated and hostile bytes. */
class MediaHeaderTest {
    private static final Duration QUICKLY = Duration.ofSeconds(5);

    @Test
    void aPngReadsItsSizeFromIhdr() {
        assertThat(MediaHeader.read(SampleMedia.image("png", 2500, 500)))
                .isEqualTo(new MediaHeader.Read("png", MediaFacts.Kind.IMAGE, null, 2500, 500, null, -1));
    }

    @Test
    void aJpegReadsItsSizeFromTheFrameHeader() {
        assertThat(MediaHeader.read(SampleMedia.image("jpeg", 1080, 1350)))
                .isEqualTo(new MediaHeader.Read("jpeg", MediaFacts.Kind.IMAGE, null, 1080, 1350, null, -1));
    }

    @Test
    void aPhonePhotoTurnedByItsExifOrientationReadsAsDisplayed() {
        // Stored 4032x3024, shown turned a quarter (orientation 6): a portrait photo, in either byte order.
        for (boolean little : List.of(true, false)) {
            MediaHeader.Read read = MediaHeader.read(SampleMedia.jpegWithOrientation(400, 300, 6, little));
            assertThat(List.of(read.width(), read.height())).containsExactly(300, 400);
        }
        MediaHeader.Read upright = MediaHeader.read(SampleMedia.jpegWithOrientation(400, 300, 1, true));
        assertThat(List.of(upright.width(), upright.height())).containsExactly(400, 300);
    }

    @Test
    void aGifReadsItsLogicalScreen() {
        assertThat(MediaHeader.read(SampleMedia.image("gif", 320, 240)))
                .isEqualTo(new MediaHeader.Read("gif", MediaFacts.Kind.IMAGE, null, 320, 240, null, -1));
    }

    @Test
    void aWebpReadsItsCanvasWhetherLossyLosslessOrExtended() {
        assertThat(MediaHeader.read(SampleMedia.webpLossy(1080, 1920)))
                .isEqualTo(new MediaHeader.Read("webp", MediaFacts.Kind.IMAGE, null, 1080, 1920, null, -1));
        assertThat(MediaHeader.read(SampleMedia.webpLossless(1000, 1500)))
                .isEqualTo(new MediaHeader.Read("webp", MediaFacts.Kind.IMAGE, null, 1000, 1500, null, -1));
        assertThat(MediaHeader.read(SampleMedia.webpExtended(5000, 70000)))
                .isEqualTo(new MediaHeader.Read("webp", MediaFacts.Kind.IMAGE, null, 5000, 70000, null, -1));
    }

    @Test
    void anMp4ReadsItsDurationTheVideoTracksSizeAndCodec() {
        assertThat(MediaHeader.read(Movie.mp4(1920, 1080, 90).bytes()))
                .isEqualTo(new MediaHeader.Read(
                        "mp4", MediaFacts.Kind.VIDEO, "avc1", 1920, 1080, Duration.ofSeconds(90), -1));
        MediaHeader.Read v1 = MediaHeader.read(Movie.mp4(1280, 720, 12.5).v1().bytes());
        assertThat(v1.duration()).isEqualTo(Duration.ofMillis(12_500));
        assertThat(v1.width()).isEqualTo(1280);
    }

    @Test
    void aQuickTimeBrandReadsAsMov() {
        assertThat(MediaHeader.read(Movie.mp4(640, 480, 3).brand("qt  ").bytes())
                        .container())
                .isEqualTo("mov");
    }

    @Test
    void aVideoRecordedUprightOnAPhoneReadsAsPortrait() {
        // Phones store 1920x1080 frames and a quarter-turn matrix; viewers show 1080x1920.
        MediaHeader.Read read =
                MediaHeader.read(Movie.mp4(1920, 1080, 30).turned().bytes());
        assertThat(List.of(read.width(), read.height())).containsExactly(1080, 1920);
    }

    @Test
    void aMoovAfterTheMediaDataSaysWhereItStartsAndIsReadFromThere() {
        byte[] file = Movie.mp4(1080, 1920, 120).moovLast(200_000).bytes();
        byte[] head = Arrays.copyOf(file, MediaProbe.READ_BYTES);
        MediaHeader.Read first = MediaHeader.read(head);
        assertThat(first.container()).isEqualTo("mp4");
        assertThat(first.duration()).isNull();
        long moov = first.resumeAt();
        assertThat(moov).isEqualTo(24 + 8 + 200_000); // after ftyp and mdat
        assertThat(new String(file, (int) moov + 4, 4)).isEqualTo("moov");

        MediaHeader.Read whole = MediaHeader.read(head, moov, Arrays.copyOfRange(file, (int) moov, file.length));
        assertThat(whole)
                .isEqualTo(new MediaHeader.Read(
                        "mp4", MediaFacts.Kind.VIDEO, "avc1", 1080, 1920, Duration.ofMinutes(2), -1));
    }

    @Test
    void aJpegWhoseFrameHeaderFollowsLargeMetadataSaysWhereToReadOn() {
        byte[] file = SampleMedia.jpegAfterMetadata(1080, 1350, 3); // 90 KB of APP2 before the frame header
        byte[] head = Arrays.copyOf(file, MediaProbe.READ_BYTES);
        MediaHeader.Read first = MediaHeader.read(head);
        assertThat(first.width()).isNull();
        assertThat(first.resumeAt()).isEqualTo(2 + 3 * 30_004); // past the last segment that starts in the head

        long from = first.resumeAt();
        MediaHeader.Read whole = MediaHeader.read(head, from, Arrays.copyOfRange(file, (int) from, file.length));
        assertThat(whole).isEqualTo(new MediaHeader.Read("jpeg", MediaFacts.Kind.IMAGE, null, 1080, 1350, null, -1));
    }

    @Test
    void everyTruncationOfEveryKindOfFileReadsWithoutFailingAndWithoutInventingFacts() {
        List<byte[]> files = List.of(
                SampleMedia.image("png", 64, 32),
                SampleMedia.jpegWithOrientation(64, 32, 8, false),
                SampleMedia.image("gif", 64, 32),
                SampleMedia.webpLossy(64, 32),
                SampleMedia.webpLossless(64, 32),
                SampleMedia.webpExtended(64, 32),
                Movie.mp4(64, 32, 5).bytes(),
                Movie.mp4(64, 32, 5).turned().v1().bytes());
        assertTimeoutPreemptively(QUICKLY, () -> {
            for (byte[] file : files) {
                for (int length = 0; length <= file.length; length++) {
                    MediaHeader.Read read = MediaHeader.read(Arrays.copyOf(file, length));
                    // Cut short, a reader either knows the true size or says nothing of it.
                    if (read.width() != null) {
                        assertThat(List.of(read.width(), read.height())).isIn(List.of(64, 32), List.of(32, 64));
                    }
                }
            }
        });
    }

    @Test
    void boxesThatLieAboutTheirSizeNeitherLoopNorAllocate() {
        byte[] ftyp = box("ftyp", concat(SampleMedia.ascii("isom"), u32(0)));
        List<byte[]> hostile = List.of(
                // A box of size 4 (smaller than its own header) would never advance a naive walk.
                concat(ftyp, u32(4), SampleMedia.ascii("free"), new byte[64]),
                // Size 0 means "to the end of the file" (or of the parent), never "zero bytes, read here again".
                concat(ftyp, box("moov", concat(u32(0), SampleMedia.ascii("trak"), new byte[16])), u32(0)),
                concat(ftyp, u32(0), SampleMedia.ascii("free"), u32(0), SampleMedia.ascii("moov")),
                // mvhd claiming 4 GiB inside a small moov: bounded by the moov and by the bytes read.
                concat(ftyp, box("moov", concat(u32(0xffffffffL), SampleMedia.ascii("mvhd"), new byte[32]))),
                // A 64-bit size of 2^63 - 1 and one that wraps around.
                concat(ftyp, u32(1), SampleMedia.ascii("mdat"), new byte[] {0x7f, -1, -1, -1, -1, -1, -1, -1}),
                concat(ftyp, u32(1), SampleMedia.ascii("mdat"), new byte[] {-1, -1, -1, -1, -1, -1, -1, -1}),
                // Children that each claim the rest of their parent, nested as deep as the walk goes.
                concat(ftyp, nested(2000)),
                // A JPEG of fill bytes, and one whose segment lengths are below 2.
                concat(new byte[] {-1, (byte) 0xd8}, filled(60_000, (byte) 0xff)),
                new byte[] {-1, (byte) 0xd8, -1, (byte) 0xe0, 0, 1, -1, (byte) 0xe0, 0, 0});
        assertTimeoutPreemptively(QUICKLY, () -> {
            for (byte[] bytes : hostile) {
                MediaHeader.Read read = MediaHeader.read(bytes);
                assertThat(read.duration()).isNull();
            }
        });
    }

    @Test
    void randomBytesNeverFailTheReader() {
        Random random = new Random(33);
        byte[][] starts = {
            Movie.mp4(8, 8, 1).bytes(), SampleMedia.image("png", 8, 8), SampleMedia.jpegWithOrientation(8, 8, 6, true)
        };
        assertTimeoutPreemptively(QUICKLY, () -> {
            for (int i = 0; i < 20_000; i++) {
                byte[] bytes = Arrays.copyOf(starts[i % starts.length], 40 + random.nextInt(400));
                // Keep the signature, garble a few bytes after it.
                for (int k = 0; k < 1 + random.nextInt(8); k++) {
                    bytes[8 + random.nextInt(bytes.length - 8)] = (byte) random.nextInt();
                }
                MediaHeader.read(bytes);
            }
        });
    }

    @Test
    void bytesOfNoKnownFormatSayNothing() {
        assertThat(MediaHeader.read("<!doctype html><html>".getBytes()))
                .isEqualTo(new MediaHeader.Read(null, null, null, null, null, null, -1));
        assertThat(MediaHeader.read(new byte[0]).container()).isNull();
    }

    private static byte[] nested(int depth) {
        byte[] inner = new byte[0];
        for (int i = 0; i < depth; i++) {
            inner = box(i % 2 == 0 ? "trak" : "moov", inner);
        }
        return inner;
    }

    private static byte[] filled(int length, byte value) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, value);
        return bytes;
    }
}
