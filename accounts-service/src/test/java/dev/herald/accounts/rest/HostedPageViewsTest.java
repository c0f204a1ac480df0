package dev.herald.accounts.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.accounts.rest.HostedPageViews.AccountView;
import dev.herald.common.wire.Platform;
import org.junit.jupiter.api.Test;

class HostedPageViewsTest {
    private static AccountView account(String name, String username) {
        return new AccountView(
                "acc_1", "YouTube", PlatformMark.of(Platform.YOUTUBE), name, username, 1, true, "Working", "");
    }

    @Test
    void anAccountIsNamedWithOneAtBeforeItsHandle() {
        assertThat(account("Ada", "ada").handle()).isEqualTo("@ada");
        // YouTube handles come with their @ already.
        assertThat(account("Herald Fake Garden", "@heraldfakegarden").handle()).isEqualTo("@heraldfakegarden");
    }

    @Test
    void anIdentifierThatIsNoHandleIsLeftOut() {
        assertThat(account("Fay Kerr", "urn:li:person:hF4k3Mbr0q").handle()).isNull();
        assertThat(account("Nameless handle", null).handle()).isNull();
    }

    @Test
    void namesAndHandlesAreEscapedAndIsolatedForTheMessagesThatNameThem() {
        assertThat(account("<b>Eve</b>", "rtl\u202e").html())
                .isEqualTo("<bdi>&lt;b&gt;Eve&lt;/b&gt;</bdi> (<bdi>@rtl\u202e</bdi>)");
        assertThat(account("Fay Kerr", "urn:li:person:hF4k3Mbr0q").html()).isEqualTo("<bdi>Fay Kerr</bdi>");
    }
}
