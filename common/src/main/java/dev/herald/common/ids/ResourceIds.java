package dev.herald.common.ids;

import java.security.SecureRandom;
import java.util.HexFormat;

/** Generates resource ids. Random rather than sequential, so ids reveal neither volume nor order. */
public final class ResourceIds {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    private ResourceIds() {}

    public static String newId(IdPrefix kind) {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return kind.prefix() + "_" + HEX.formatHex(bytes);
    }
}
