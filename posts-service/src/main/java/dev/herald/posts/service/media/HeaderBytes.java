package dev.herald.posts.service.media;

import java.util.Arrays;

/**
 * The parts of a file a probe read: its first bytes and, for an MP4/MOV whose {@code moov} lies further on, one more
 * window at a known offset. Every read names an absolute file offset and answers -1 (or null) when those bytes were
 * not read, so a parser fed a truncated or hostile header never reads past what it has and never trusts a length field
 * to size anything: the bytes here are the only memory a header takes.
 */
final class HeaderBytes {
    private final byte[] head;
    private final long laterOffset;
    private final byte[] later;

    private HeaderBytes(byte[] head, long laterOffset, byte[] later) {
        this.head = head;
        this.laterOffset = laterOffset;
        this.later = later;
    }

    /** The file's first bytes. */
    static HeaderBytes of(byte[] head) {
        return new HeaderBytes(head, -1, new byte[0]);
    }

    /** These bytes and {@code later}, read from {@code offset} on. */
    HeaderBytes with(long offset, byte[] later) {
        return new HeaderBytes(head, offset, later);
    }

    /** Whether the {@code count} bytes from {@code offset} were all read, in one window. */
    boolean has(long offset, int count) {
        return window(offset, count) != null;
    }

    /** The end of the window holding {@code offset}: how far a box starting there can be read. */
    long readableEnd(long offset) {
        if (offset >= 0 && offset < head.length) {
            return head.length;
        }
        if (laterOffset >= 0 && offset >= laterOffset && offset < laterOffset + later.length) {
            return laterOffset + later.length;
        }
        return offset;
    }

    int u8(long offset) {
        byte[] window = window(offset, 1);
        return window == null ? -1 : window[index(window, offset)] & 0xff;
    }

    /** Big-endian unsigned 16 bits, or -1. */
    int u16(long offset) {
        byte[] window = window(offset, 2);
        if (window == null) {
            return -1;
        }
        int i = index(window, offset);
        return ((window[i] & 0xff) << 8) | (window[i + 1] & 0xff);
    }

    /** Little-endian unsigned 16 bits, or -1. */
    int u16le(long offset) {
        byte[] window = window(offset, 2);
        if (window == null) {
            return -1;
        }
        int i = index(window, offset);
        return (window[i] & 0xff) | ((window[i + 1] & 0xff) << 8);
    }

    /** Little-endian unsigned 24 bits, or -1. */
    int u24le(long offset) {
        int low = u16le(offset);
        int high = u8(offset + 2);
        return low < 0 || high < 0 ? -1 : low | (high << 16);
    }

    /** Big-endian unsigned 32 bits, or -1. */
    long u32(long offset) {
        int high = u16(offset);
        int low = u16(offset + 2);
        return high < 0 || low < 0 ? -1 : ((long) high << 16) | low;
    }

    /** Little-endian unsigned 32 bits, or -1. */
    long u32le(long offset) {
        int low = u16le(offset);
        int high = u16le(offset + 2);
        return high < 0 || low < 0 ? -1 : ((long) high << 16) | low;
    }

    /** Big-endian 64 bits read as unsigned; -1 when not read or above {@link Long#MAX_VALUE}. */
    long u64(long offset) {
        long high = u32(offset);
        long low = u32(offset + 4);
        if (high < 0 || low < 0 || high > Integer.MAX_VALUE) {
            return -1;
        }
        return (high << 32) | low;
    }

    /** Signed big-endian 32 bits (a 16.16 fixed-point number), or null. */
    Integer s32(long offset) {
        long value = u32(offset);
        return value < 0 ? null : (int) value;
    }

    /** Four bytes as ASCII (a box type, a chunk name), or null. */
    String fourCc(long offset) {
        byte[] window = window(offset, 4);
        if (window == null) {
            return null;
        }
        int i = index(window, offset);
        char[] chars = new char[4];
        for (int k = 0; k < 4; k++) {
            chars[k] = (char) (window[i + k] & 0xff);
        }
        return new String(chars);
    }

    /** Whether the bytes from {@code offset} are exactly {@code expected}. */
    boolean startsWith(long offset, byte[] expected) {
        byte[] window = window(offset, expected.length);
        if (window == null) {
            return false;
        }
        int i = index(window, offset);
        return Arrays.equals(window, i, i + expected.length, expected, 0, expected.length);
    }

    private byte[] window(long offset, int count) {
        if (offset >= 0 && offset + count <= head.length) {
            return head;
        }
        if (laterOffset >= 0 && offset >= laterOffset && offset + count <= laterOffset + later.length) {
            return later;
        }
        return null;
    }

    private int index(byte[] window, long offset) {
        return (int) (window == head ? offset : offset - laterOffset);
    }
}
