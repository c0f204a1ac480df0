package dev.herald.webhooks.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.mutiny.core.Vertx;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReceiverAddressesTest {
    private static final Vertx VERTX = Vertx.vertx();

    @AfterAll
    static void close() {
        VERTX.closeAndAwait();
    }

    private static InetAddress ip(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.255.0.9", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.0.1",
            "169.254.169.254", "169.254.0.1", "100.64.0.1", "100.127.255.255", "0.0.0.0", "0.1.2.3", "224.0.0.251",
            "239.255.255.250", "240.0.0.1", "255.255.255.255", "192.0.0.8", "192.0.2.1", "198.18.0.1", "198.51.100.1",
            "203.0.113.9", "::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "ff02::1", "::ffff:10.0.0.1",
            "::127.0.0.1", "64:ff9b::a9fe:a9fe", "2002:c0a8:0101::1", "2001:db8::1", "2001:0:4136:e378::1", "100::1"})
    void nonPublicAddressesAreRefused(String address) {
        assertThat(ReceiverAddresses.isPublic(ip(address))).as(address).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "100.128.0.1",
            "100.63.255.255", "192.169.0.1", "169.255.0.1", "2606:4700:4700::1111", "2a00:1450:4001:82a::200e",
            "64:ff9b::808:808", "2002:0808:0808::1"})
    void publicAddressesAreAccepted(String address) {
        assertThat(ReceiverAddresses.isPublic(ip(address))).as(address).isTrue();
    }

    @Test
    void aHostIsRefusedWhenAnyOfItsAddressesIsNotPublic() {
        ReceiverAddresses guard = new ReceiverAddresses(VERTX, false,
                host -> new InetAddress[] {ip("93.184.216.34"), ip("10.0.0.7")});
        assertThatThrownBy(() -> guard.vet("https://mixed.example.com/hooks").await().atMost(Duration.ofSeconds(5)))
                .isInstanceOf(ReceiverAddresses.RefusedUrl.class)
                .hasMessage("must resolve to public addresses only (mixed.example.com resolves to 10.0.0.7)");
    }

    @Test
    void theCheckedAddressIsTheOneConnectedTo() {
        ReceiverAddresses guard = new ReceiverAddresses(VERTX, false, host -> new InetAddress[] {ip("93.184.216.34")});
        ReceiverAddresses.Receiver receiver = guard.vet("https://hooks.example.com:8443/in?a=1&b=2").await().atMost(Duration.ofSeconds(5));
        assertThat(receiver.host()).isEqualTo("hooks.example.com");
        assertThat(receiver.port()).isEqualTo(8443);
        assertThat(receiver.ssl()).isTrue();
        assertThat(receiver.requestUri()).isEqualTo("/in?a=1&b=2");
        assertThat(receiver.address()).isEqualTo(ip("93.184.216.34"));
        assertThat(guard.vet("https://hooks.example.com").await().atMost(Duration.ofSeconds(5)).port()).isEqualTo(443);
        assertThat(guard.vet("https://hooks.example.com").await().atMost(Duration.ofSeconds(5)).requestUri()).isEqualTo("/");
    }

    @Test
    void anUnresolvableHostIsRefused() {
        ReceiverAddresses guard = new ReceiverAddresses(VERTX, false, host -> {
            throw new UnknownHostException(host);
        });
        assertThatThrownBy(() -> guard.vet("https://gone.example.com/").await().atMost(Duration.ofSeconds(5)))
                .isInstanceOf(ReceiverAddresses.RefusedUrl.class).hasMessageContaining("resolves");
    }

    @Test
    void theFormOfAUrlIsCheckedBeforeAnyLookup() {
        ReceiverAddresses guard = new ReceiverAddresses(VERTX, false, host -> {
            throw new AssertionError("no lookup expected");
        });
        assertThat(guard.formProblem("http://example.com/")).contains("must be an absolute https URL");
        assertThat(guard.formProblem("https://user@example.com/")).contains("must not contain user information (user:password@)");
        assertThat(guard.formProblem("https://example.com/#top")).contains("must not contain a fragment (#...)");
        assertThat(guard.formProblem("/relative")).contains("must be an absolute https URL");
        assertThat(guard.formProblem("https:///nohost")).contains("must have a valid host name");
        assertThat(guard.formProblem("https://exa mple.com/")).contains("must be an absolute https URL");
        assertThat(guard.formProblem("https://example.com:8443/path?q=1")).isEmpty();
        assertThat(guard.formProblem("HTTPS://EXAMPLE.COM/")).isEmpty();
    }

    @Test
    void localRunsMayUsePlainHttpAndPrivateAddresses() {
        ReceiverAddresses local = new ReceiverAddresses(VERTX, true, InetAddress::getAllByName);
        assertThat(local.formProblem("http://127.0.0.1:9000/hooks")).isEmpty();
        assertThat(local.vet("http://127.0.0.1:9000/hooks").await().atMost(Duration.ofSeconds(5)).address())
                .isEqualTo(ip("127.0.0.1"));
        assertThat(local.formProblem("ftp://127.0.0.1/")).contains("must be an absolute https (or, locally, http) URL");
    }
}
