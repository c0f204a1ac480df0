package dev.herald.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A process and its descendants, stopped together: politely first (SIGTERM), then by force (SIGKILL). */
public record ProcessTree(ProcessHandle root) {

    public static Optional<ProcessTree> of(long pid) {
        return ProcessHandle.of(pid).filter(ProcessTree::running).map(ProcessTree::new);
    }

    public long pid() {
        return root.pid();
    }

    public boolean isAlive() {
        return running(root);
    }

    /**
     * Alive and not a zombie. A killed process that is not our child stays a zombie until its new parent (init)
     * reaps it, which some init processes do only every few seconds; it runs no code and holds no port anymore.
     */
    static boolean running(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
        try {
            String text = Files.readString(stat, StandardCharsets.UTF_8);
            // "pid (command) S ...": the state follows the last parenthesis, since the command may contain some.
            int end = text.lastIndexOf(')');
            char state = end >= 0 && end + 2 < text.length() ? text.charAt(end + 2) : 'R';
            return state != 'Z' && state != 'X';
        } catch (IOException e) {
            // No procfs (not Linux), or the process is gone already.
            return process.isAlive();
        }
    }

    /**
     * The full command line, read from {@code /proc/<pid>/cmdline} on Linux because {@link ProcessHandle.Info}
     * truncates or omits arguments of processes that are not our children.
     */
    public String commandLine() {
        Path procfs = Path.of("/proc", Long.toString(root.pid()), "cmdline");
        try {
            if (Files.isReadable(procfs)) {
                return new String(Files.readAllBytes(procfs), StandardCharsets.UTF_8)
                        .replace('\0', ' ')
                        .strip();
            }
        } catch (IOException e) {
            // The process exited between the check and the read: it has no command line anymore.
            return "";
        }
        return root.info().commandLine().orElse("");
    }

    /** Whether this is (still) the process we started, judged by text its command line must contain. */
    public boolean runs(String marker) {
        return isAlive() && commandLine().contains(marker);
    }

    /**
     * Sends SIGTERM to the process and its descendants, waits up to {@code grace} for the process to exit,
     * then SIGKILLs whatever of the tree is left.
     *
     * @return true when it exited within the grace period
     */
    public boolean stop(Duration grace) throws InterruptedException {
        return stopAll(List.of(this), grace);
    }

    /**
     * Stops several trees at once (SIGTERM to all, one shared grace period, then SIGKILL to what is left), so
     * that shutting down N processes takes one grace period, not N. Descendants are collected before
     * signalling because they are re-parented (and lost from the tree) once their parent dies.
     *
     * @return true when every tree exited within the grace period
     */
    public static boolean stopAll(List<ProcessTree> trees, Duration grace) throws InterruptedException {
        List<ProcessHandle> members = new ArrayList<>();
        trees.forEach(tree -> members.addAll(tree.members()));
        members.forEach(ProcessHandle::destroy);
        boolean exited = awaitExit(members, grace);
        if (!exited) {
            kill(members);
        }
        return exited;
    }

    /** SIGKILL for the whole tree, e.g. to simulate a crash. */
    public void kill() throws InterruptedException {
        kill(members());
    }

    private List<ProcessHandle> members() {
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(root);
        root.descendants().forEach(tree::add);
        return tree;
    }

    private static void kill(List<ProcessHandle> tree) throws InterruptedException {
        tree.forEach(ProcessHandle::destroyForcibly);
        if (!awaitExit(tree, Duration.ofSeconds(10))) {
            throw new IllegalStateException("process " + tree.get(0).pid() + " survived SIGKILL");
        }
    }

    /**
     * Polls rather than using {@link ProcessHandle#onExit()}: for processes that are not our children (leftovers
     * of a crashed run) the JDK can only poll too, with a back-off that adds seconds per process.
     */
    private static boolean awaitExit(List<ProcessHandle> tree, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (tree.stream().anyMatch(ProcessTree::running)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }
}
