package dev.herald.common.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The address rules both SSRF guards share (webhook receivers, media URLs). The guards' own tests cover only what
 * each adds around them: URL form, when DNS is asked, and how a refusal is reported.
 */
class PublicAddressesTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "127.0.0.1",
                "127.255.0.9",
                "10.0.0.1",
                "172.16.0.1",
                "172.31.255.255",
                "192.168.0.1",
                "169.254.169.254",
                "169.254.0.1",
                "100.64.0.1",
                "100.127.255.255",
                "0.0.0.0",
                "0.1.2.3",
                "224.0.0.251",
                "239.255.255.250",
                "240.0.0.1",
                "255.255.255.255",
                "192.0.0.8",
                "192.0.2.1",
                "198.18.0.1",
                "198.51.100.1",
                "203.0.113.9",
                "::",
                "::1",
                "fc00::1",
                "fd00::1",
                "fd12:3456::1",
                "fe80::1",
                "ff02::1",
                "::ffff:10.0.0.1",
                "::ffff:127.0.0.1",
                "::127.0.0.1",
                "64:ff9b::a9fe:a9fe",
                "2002:c0a8:0101::1",
                "2001:db8::1",
                "2001:0:4136:e378::1",
                "100::1"
            })
    void nonPublicAddressesAreRefused(String address) throws UnknownHostException {
        assertThat(PublicAddresses.isPublic(InetAddress.getByName(address)))
                .as(address)
                .isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "93.184.216.34",
                "8.8.8.8",
                "1.1.1.1",
                "172.32.0.1",
                "172.15.255.255",
                "100.128.0.1",
                "100.63.255.255",
                "192.169.0.1",
                "169.255.0.1",
                "2606:4700:4700::1111",
                "2a00:1450:4001:82a::200e",
                "64:ff9b::808:808",
                "2002:0808:0808::1"
            })
    void publicAddressesAreAccepted(String address) throws UnknownHostException {
        assertThat(PublicAddresses.isPublic(InetAddress.getByName(address)))
                .as(address)
                .isTrue();
    }

    // A literal is checked without a lookup, so what counts as one decides whether the guards ask DNS at all.
    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "0.0.0.0", "255.255.255.255", "::1", "fd00::1", "::ffff:127.0.0.1"})
    void addressLiteralsNeedNoLookup(String host) {
        assertThat(PublicAddresses.isLiteral(host)).as(host).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"cdn.example.com", "0day.cdn.example", "256.0.0.1", "1.2.3", "1.2.3.4.5", "2130706433"})
    void namesAndMalformedQuadsAreNotLiterals(String host) {
        assertThat(PublicAddresses.isLiteral(host)).as(host).isFalse();
    }
}
