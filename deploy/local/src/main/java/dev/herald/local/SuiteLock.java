package dev.herald.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;

/**
 * A file lock on {@code suite.lock}, held while a suite runs. The OS releases it when this process dies,
 * however it dies, so a lock we can take proves that every pid file in the state directory is stale; a lock we
 * cannot take means a live suite owns the directory and must not be touched.
 */
final class SuiteLock {
    private final StateDirectory state;
    private final FileChannel channel;
    private final FileLock lock;

    private SuiteLock(StateDirectory state, FileChannel channel, FileLock lock) {
        this.state = state;
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock and writes our pid into it, or fails naming the suite that holds it. */
    static SuiteLock acquire(StateDirectory state) throws IOException {
        FileChannel channel = FileChannel.open(
                state.lock(), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock acquired;
        try {
            acquired = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            acquired = null;
        }
        if (acquired == null) {
            String owner =
                    Files.readString(state.lock(), StandardCharsets.UTF_8).strip();
            channel.close();
            throw new LocalSuiteStartException(
                    "suite",
                    "cannot start: " + state.root() + " is in use by a running suite"
                            + (owner.isEmpty() ? "" : " (pid " + owner + ")") + "; stop it first (./herald down)",
                    null,
                    null);
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)));
        return new SuiteLock(state, channel, acquired);
    }

    void release() throws IOException {
        // suite.properties describes a running suite; it is ours to remove only while we hold the lock.
        Files.deleteIfExists(state.suiteProperties());
        channel.truncate(0);
        lock.release();
        channel.close();
    }
}
