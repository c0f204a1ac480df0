package dev.herald.common.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyFilesTest {
    @TempDir
    Path directory;

    private static String joined(Map<String, Optional<String>> texts) {
        String current = texts.get("current").orElseThrow(() -> new IllegalArgumentException("no current key"));
        if (current.equals("broken")) {
            throw new IllegalArgumentException("not a key");
        }
        return current + "+" + texts.get("retired").orElse("none");
    }

    @Test
    void changedFilesMakeTheNextSnapshotAndAbsentOnesAreEmpty() throws Exception {
        Files.writeString(directory.resolve("current"), "k1\n");
        KeyFiles<String> files = new KeyFiles<>("keys", directory, List.of("current", "retired"), KeyFilesTest::joined);
        assertThat(files.current()).isEqualTo("k1+none");

        Files.writeString(directory.resolve("retired"), "k1");
        Files.writeString(directory.resolve("current"), "k2");
        files.reload();

        assertThat(files.current()).isEqualTo("k2+k1");
    }

    @Test
    void unusableFilesKeepTheKeysReadBefore() throws Exception {
        Files.writeString(directory.resolve("current"), "k1");
        KeyFiles<String> files = new KeyFiles<>("keys", directory, List.of("current", "retired"), KeyFilesTest::joined);

        Files.writeString(directory.resolve("current"), "broken");
        files.reload();
        assertThat(files.current()).isEqualTo("k1+none");
        Files.delete(directory.resolve("current"));
        files.reload();
        assertThat(files.current()).isEqualTo("k1+none");

        Files.writeString(directory.resolve("current"), "k2");
        files.reload();
        assertThat(files.current()).isEqualTo("k2+none");
    }

    @Test
    void theFirstReadMustMakeKeys() {
        assertThatThrownBy(() -> new KeyFiles<>("keys", directory, List.of("current", "retired"), KeyFilesTest::joined))
                .hasMessage("no current key");
    }
}
