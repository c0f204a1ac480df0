package dev.herald.common.net;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * Which addresses a URL given by a customer may point at (the SSRF rules shared by webhook receivers and media
 * URLs): not loopback, private, link-local (the cloud metadata address 169.254.169.254 included), CGNAT,
 * unspecified, multicast, reserved or documentation ranges, nor IPv6 forms that embed such an IPv4 address.
 */
public final class PublicAddresses {
    private static final Pattern IPV4_LITERAL = Pattern.compile("^\\d{1,3}(\\.\\d{1,3}){3}$");

    private PublicAddresses() {}

    /** Whether the JDK reads {@code host} as an address without any lookup. */
    public static boolean isLiteral(String host) {
        if (host.indexOf(':') >= 0) {
            return true; // IPv6: never a name, parsed (or refused) without DNS
        }
        if (!IPV4_LITERAL.matcher(host).matches()) {
            return false;
        }
        return Arrays.stream(host.split("\\.")).allMatch(octet -> Integer.parseInt(octet) <= 255);
    }

    /** Whether an address is publicly routable unicast: one Herald may connect to on a customer's behalf. */
    public static boolean isPublic(InetAddress address) {
        if (address.isAnyLocalAddress()
                || address.isLoopbackAddress()
                || address.isLinkLocalAddress()
                || address.isSiteLocalAddress()
                || address.isMulticastAddress()) {
            return false;
        }
        byte[] bytes = address.getAddress();
        return bytes.length == 4 ? isPublicV4(bytes, 0) : isPublicV6(bytes);
    }

    private static boolean isPublicV4(byte[] bytes, int offset) {
        int a = bytes[offset] & 0xff;
        int b = bytes[offset + 1] & 0xff;
        int c = bytes[offset + 2] & 0xff;
        if (a == 0 || a == 10 || a == 127) {
            return false; // "this network" (0.0.0.0 included), private, loopback
        }
        if (a == 100 && (b & 0xc0) == 64) {
            return false; // 100.64.0.0/10, carrier-grade NAT
        }
        if (a == 169 && b == 254) {
            return false; // link-local, including 169.254.169.254 (cloud metadata)
        }
        if (a == 172 && (b & 0xf0) == 16) {
            return false; // 172.16.0.0/12
        }
        if (a == 192 && b == 168) {
            return false; // 192.168.0.0/16
        }
        if (a == 192 && b == 0 && (c == 0 || c == 2)) {
            return false; // IETF protocol assignments, TEST-NET-1
        }
        if (a == 198 && (b & 0xfe) == 18) {
            return false; // 198.18.0.0/15, benchmarking
        }
        if ((a == 198 && b == 51 && c == 100) || (a == 203 && b == 0 && c == 113)) {
            return false; // TEST-NET-2, TEST-NET-3
        }
        return a < 224; // multicast 224/4, reserved 240/4 and broadcast
    }

    private static boolean isPublicV6(byte[] bytes) {
        int first = bytes[0] & 0xff;
        int second = bytes[1] & 0xff;
        if ((first & 0xfe) == 0xfc) {
            return false; // fc00::/7, unique local
        }
        if (first == 0xfe && (second & 0xc0) == 0x80) {
            return false; // fe80::/10, link-local
        }
        if (first == 0xff) {
            return false; // multicast
        }
        boolean zeroPrefix = true;
        for (int i = 0; i < 10; i++) {
            zeroPrefix &= bytes[i] == 0;
        }
        if (zeroPrefix
                && ((bytes[10] == 0 && bytes[11] == 0) || (bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff))) {
            return isPublicV4(bytes, 12); // IPv4-compatible ::a.b.c.d and IPv4-mapped ::ffff:a.b.c.d
        }
        if (first == 0x00 && second == 0x64 && (bytes[2] & 0xff) == 0xff && (bytes[3] & 0xff) == 0x9b) {
            return isPublicV4(bytes, 12); // 64:ff9b::/96, NAT64
        }
        if (first == 0x20 && second == 0x02) {
            return isPublicV4(bytes, 2); // 2002::/16, 6to4
        }
        if (first == 0x20 && second == 0x01 && bytes[2] == 0 && bytes[3] == 0) {
            return false; // 2001::/32, Teredo (an obfuscated IPv4 address)
        }
        if (first == 0x20 && second == 0x01 && (bytes[2] & 0xff) == 0x0d && (bytes[3] & 0xff) == 0xb8) {
            return false; // 2001:db8::/32, documentation
        }
        if (first == 0x01
                && second == 0x00
                && bytes[2] == 0
                && bytes[3] == 0
                && bytes[4] == 0
                && bytes[5] == 0
                && bytes[6] == 0
                && bytes[7] == 0) {
            return false; // 100::/64, discard-only
        }
        return true;
    }
}
