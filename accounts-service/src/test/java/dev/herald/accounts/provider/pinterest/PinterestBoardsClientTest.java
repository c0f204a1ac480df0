package dev.herald.accounts.provider.pinterest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.herald.accounts.provider.FakeProvider.await;
import static dev.herald.accounts.provider.FakeProvider.failure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.accounts.provider.FakeProvider;
import dev.herald.accounts.provider.PinterestBoardsReader;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderPage;
import dev.herald.common.wire.PinterestBoard;
import dev.herald.common.wire.PinterestBoardSection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PinterestBoardsClientTest {
    @RegisterExtension
    static final FakeProvider fake = new FakeProvider();

    private PinterestBoardsClient reader() {
        return new PinterestBoardsClient(fake.config(), fake.http(fake.config()));
    }

    @Test
    void boardsArePagedWithPinterestsBookmark() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v5/boards"))
                        .withQueryParam("bookmark", absent())
                        .willReturn(okJson("""
                {"items":[{"id":"549755885175","name":"Recipes","description":"Sweet things","privacy":"PUBLIC",
                  "owner":{"username":"anabakes"}}],"bookmark":"Ym9va21hcms="}""")));
        fake.server()
                .stubFor(get(urlPathEqualTo("/v5/boards"))
                        .withQueryParam("bookmark", equalTo("Ym9va21hcms="))
                        .willReturn(okJson("""
                {"items":[{"id":"549755885176","name":"Secret plans","privacy":"SECRET"}],"bookmark":null}""")));

        ProviderPage<PinterestBoard> first = await(reader().boards("pina_1", false, null, 1));
        ProviderPage<PinterestBoard> second = await(reader().boards("pina_1", false, first.nextBookmark(), 1));

        assertThat(first.items())
                .containsExactly(new PinterestBoard("549755885175", "Recipes", "Sweet things", "PUBLIC"));
        assertThat(first.nextBookmark()).isEqualTo("Ym9va21hcms=");
        assertThat(second.items()).containsExactly(new PinterestBoard("549755885176", "Secret plans", null, "SECRET"));
        assertThat(second.nextBookmark()).isNull();
        fake.server()
                .verify(
                        2,
                        getRequestedFor(urlPathEqualTo("/v5/boards"))
                                .withQueryParam("page_size", equalTo("1"))
                                .withHeader("Authorization", equalTo("Bearer pina_1")));
    }

    @Test
    void trialAppsReadFromTheSandboxHost() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/sandbox/v5/boards"))
                        .willReturn(okJson("{\"items\":[],\"bookmark\":null}")));

        ProviderPage<PinterestBoard> page = await(reader().boards("pina_1", true, null, 25));

        assertThat(page.items()).isEmpty();
        fake.server()
                .verify(getRequestedFor(urlPathEqualTo("/sandbox/v5/boards"))
                        .withQueryParam("page_size", equalTo("25")));
        fake.server().verify(0, getRequestedFor(urlPathEqualTo("/v5/boards")));
    }

    @Test
    void sectionsAreReadPerBoard() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v5/boards/549755885175/sections")).willReturn(okJson("""
                {"items":[{"id":"5027629787972154693","name":"Cakes"}],"bookmark":"next"}""")));

        ProviderPage<PinterestBoardSection> page =
                await(reader().sections("pina_1", false, "549755885175", "prev", 250));

        assertThat(page.items()).containsExactly(new PinterestBoardSection("5027629787972154693", "Cakes"));
        assertThat(page.nextBookmark()).isEqualTo("next");
        fake.server()
                .verify(getRequestedFor(urlPathEqualTo("/v5/boards/549755885175/sections"))
                        .withQueryParam("bookmark", equalTo("prev"))
                        .withQueryParam("page_size", equalTo("250")));
    }

    @Test
    void aBoardPinterestDoesNotKnowForThisAccountIsBoardNotFound() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v5/boards/999/sections"))
                        .willReturn(aResponse()
                                .withStatus(404)
                                .withHeader("Content-Type", "application/json")
                                .withBody("{\"code\":3,\"message\":\"Board not found.\"}")));

        ProviderException failure = failure(reader().sections("pina_1", false, "999", null, 25));

        assertThat(failure.code()).isEqualTo(PinterestBoardsReader.BOARD_NOT_FOUND);
        assertThat(failure.retryable()).isFalse();
    }

    @Test
    void aBoardIdThatIsNotDigitsNeverReachesPinterest() {
        ProviderException failure = failure(reader().sections("pina_1", false, "../user_account", null, 25));

        assertThat(failure.code()).isEqualTo("invalid_board_id");
        assertThat(fake.server().getAllServeEvents()).isEmpty();
    }

    @Test
    void rateLimitedReadsAreRetryable() {
        fake.server()
                .stubFor(get(urlPathEqualTo("/v5/boards"))
                        .willReturn(aResponse()
                                .withStatus(429)
                                .withHeader("Content-Type", "application/json")
                                .withBody("{\"code\":8,\"message\":\"Rate limit exceeded\"}")));

        ProviderException failure = failure(reader().boards("pina_1", false, null, 25));

        assertThat(failure.retryable()).isTrue();
        assertThat(failure.revoked()).isFalse();
    }
}
