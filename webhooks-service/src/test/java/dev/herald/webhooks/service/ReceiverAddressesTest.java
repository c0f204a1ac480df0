package dev.herald.webhooks.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.mutiny.core.Vertx;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * What the receiver guard adds to the shared address rules (those are {@code PublicAddressesTest} in common): the
 * URL's form, that every address a host resolves to is checked, and that the attempt goes to the checked address.
 */
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

    @Test
    void aHostIsRefusedWhenAnyOfItsAddressesIsNotPublic() {
        ReceiverAddresses guard =
                new ReceiverAddresses(VERTX, false, host -> new InetAddress[] {ip("93.184.216.34"), ip("10.0.0.7")});
        assertThatThrownBy(() ->
                        guard.vet("https://mixed.example.com/hooks").await().atMost(Duration.ofSeconds(5)))
                .isInstanceOf(ReceiverAddresses.RefusedUrl.class)
                .hasMessage("must resolve to public addresses only (mixed.example.com resolves to 10.0.0.7)");
    }

    @Test
    void theCheckedAddressIsTheOneConnectedTo() {
        ReceiverAddresses guard = new ReceiverAddresses(VERTX, false, host -> new InetAddress[] {ip("93.184.216.34")});
        ReceiverAddresses.Receiver receiver =
                guard.vet("https://hooks.example.com:8443/in?a=1&b=2").await().atMost(Duration.ofSeconds(5));
        assertThat(receiver.host()).isEqualTo("hooks.example.com");
        assertThat(receiver.port()).isEqualTo(8443);
        assertThat(receiver.ssl()).isTrue();
        assertThat(receiver.requestUri()).isEqualTo("/in?a=1&b=2");
        assertThat(receiver.address()).isEqualTo(ip("93.184.216.34"));
        assertThat(guard.vet("https://hooks.example.com")
                        .await()
                        .atMost(Duration.ofSeconds(5))
                        .port())
                .isEqualTo(443);
        assertThat(guard.vet("https://hooks.example.com")
                        .await()
                        .atMost(Duration.ofSeconds(5))
                        .requestUri())
                .isEqualTo("/");
    }

    @Test
    void anUnresolvableHostIsRefused() {
        ReceiverAddresses guard = new ReceiverAddresses(VERTX, false, host -> {
            throw new UnknownHostException(host);
        });
        assertThatThrownBy(() -> guard.vet("https://gone.example.com/").await().atMost(Duration.ofSeconds(5)))
                .isInstanceOf(ReceiverAddresses.RefusedUrl.class)
                .hasMessageContaining("resolves");
    }

    @Test
    void theFormOfAUrlIsCheckedBeforeAnyLookup() {
        ReceiverAddresses guard = new ReceiverAddresses(VERTX, false, host -> {
            throw new AssertionError("no lookup expected");
        });
        assertThat(guard.formProblem("http://example.com/")).contains("must be an absolute https URL");
        assertThat(guard.formProblem("https://user@example.com/"))
                .contains("must not contain user information (user:password@)");
        assertThat(guard.formProblem("https://example.com/#top")).contains("must not contain a fragment (#...)");
        assertThat(guard.formProblem("/relative")).contains("must be an absolute https URL");
        assertThat(guard.formProblem("https:///nohost")).contains("must have a valid host name");
        assertThat(guard.formProblem("https://exa mple.com/")).contains("must be an absolute https URL");
        assertThat(guard.formProblem("https://8.8.8.8:70000/x")).contains("must have a port from 1 to 65535");
        assertThat(guard.formProblem("https://example.com:0/x")).contains("must have a port from 1 to 65535");
        assertThat(guard.formProblem("https://example.com:65535/x")).isEmpty();
        assertThat(guard.formProblem("https://example.com:8443/path?q=1")).isEmpty();
        assertThat(guard.formProblem("HTTPS://EXAMPLE.COM/")).isEmpty();
    }

    @Test
    void localRunsMayUsePlainHttpAndPrivateAddresses() {
        ReceiverAddresses local = new ReceiverAddresses(VERTX, true, InetAddress::getAllByName);
        assertThat(local.formProblem("http://127.0.0.1:9000/hooks")).isEmpty();
        assertThat(local.vet("http://127.0.0.1:9000/hooks")
                        .await()
                        .atMost(Duration.ofSeconds(5))
                        .address())
                .isEqualTo(ip("127.0.0.1"));
        assertThat(local.formProblem("ftp://127.0.0.1/")).contains("must be an absolute https (or, locally, http) URL");
    }
}
