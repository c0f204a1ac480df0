package dev.herald.fakes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.junit.jupiter.api.Test;

/** Sample media files, and the real headers a test can ask them to start with. */
@QuarkusTest
class SampleMediaTest {

    private static byte[] fetch(String path) {
        return given().get(path).then().statusCode(200).extract().asByteArray();
    }

    /** The width and height an image reader finds in the header alone. */
    private static int[] dimensions(byte[] file) throws Exception {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(file))) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
            assertThat(readers.hasNext())
                    .as("an image reader recognizes the file")
                    .isTrue();
            ImageReader reader = readers.next();
            reader.setInput(in);
            return new int[] {reader.getWidth(0), reader.getHeight(0)};
        }
    }

    @Test
    void aFileIsTheSameBytesOnEveryRequestAndARangeIsPartOfIt() {
        byte[] whole = fetch("/_fakes/media/clip.mp4?bytes=100000");
        assertThat(whole).hasSize(100_000).isEqualTo(fetch("/_fakes/media/clip.mp4?bytes=100000"));
        byte[] part = given().header("Range", "bytes=65530-65545")
                .get("/_fakes/media/clip.mp4?bytes=100000")
                .then()
                .statusCode(206)
                .header("Content-Range", "bytes 65530-65545/100000")
                .extract()
                .asByteArray();
        assertThat(part).isEqualTo(java.util.Arrays.copyOfRange(whole, 65530, 65546));
    }

    @Test
    void aPdfIsServedAsApplicationPdfAndStartsAsAPdfDoes() {
        byte[] file = given().get("/_fakes/media/deck.pdf?bytes=70000")
                .then()
                .statusCode(200)
                .header("Content-Type", "application/pdf")
                .extract()
                .asByteArray();
        assertThat(new String(file, 0, 9, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("%PDF-1.7\n");
        assertThat(file).hasSize(70_000);
    }

    @Test
    void aPngAskedForItsDimensionsSaysThemInItsHeader() throws Exception {
        assertThat(dimensions(fetch("/_fakes/media/wide.png?bytes=4096&width=2500&height=500")))
                .containsExactly(2500, 500);
    }

    @Test
    void aJpegAskedForItsDimensionsStartsWithAFrameHeaderSayingThem() {
        byte[] file = fetch("/_fakes/media/tall.jpg?bytes=4096&width=1080&height=1350");
        ByteBuffer in = ByteBuffer.wrap(file);
        assertThat(in.getShort(0)).as("SOI").isEqualTo((short) 0xffd8);
        assertThat(in.getShort(2)).as("SOF0, baseline").isEqualTo((short) 0xffc0);
        assertThat(in.getShort(7) & 0xffff).as("height").isEqualTo(1350);
        assertThat(in.getShort(9) & 0xffff).as("width").isEqualTo(1080);
    }

    @Test
    void anMp4AskedForItsDurationAndDimensionsSaysThemInItsMovieHeader() {
        byte[] file = fetch("/_fakes/media/story.mp4?bytes=200000&width=1080&height=1920&seconds=90");
        ByteBuffer in = ByteBuffer.wrap(file);
        assertThat(type(file, 4)).isEqualTo("ftyp");
        int moov = in.getInt(0);
        assertThat(type(file, moov + 4)).isEqualTo("moov");
        int mvhd = moov + 8;
        assertThat(type(file, mvhd + 4)).isEqualTo("mvhd");
        int timescale = in.getInt(mvhd + 20);
        int duration = in.getInt(mvhd + 24);
        assertThat(duration / timescale).isEqualTo(90);
        int trak = mvhd + in.getInt(mvhd);
        int tkhd = trak + 8;
        assertThat(type(file, tkhd + 4)).isEqualTo("tkhd");
        assertThat(in.getInt(tkhd + 84) >>> 16).isEqualTo(1080);
        assertThat(in.getInt(tkhd + 88) >>> 16).isEqualTo(1920);
        int mdat = moov + in.getInt(moov);
        assertThat(type(file, mdat + 4)).isEqualTo("mdat");
        assertThat(mdat + in.getInt(mdat)).as("mdat spans the rest of the file").isEqualTo(file.length);
    }

    @Test
    void aHeaderForATypeWithoutOneOrLargerThanTheFileIsRefused() {
        given().get("/_fakes/media/notes.txt?bytes=4096&width=10&height=10")
                .then()
                .statusCode(400);
        given().get("/_fakes/media/tiny.mp4?bytes=64&width=10&height=10&seconds=3")
                .then()
                .statusCode(400);
        given().get("/_fakes/media/half.png?bytes=4096&width=10").then().statusCode(400);
    }

    private static String type(byte[] file, int offset) {
        return new String(file, offset, 4, StandardCharsets.US_ASCII);
    }
}
