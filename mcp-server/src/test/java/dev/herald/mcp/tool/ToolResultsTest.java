package dev.herald.mcp.tool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.mcp.client.GatewayAnswer;
import dev.herald.mcp.client.GatewayRequest;
import io.quarkiverse.mcp.server.TextContent;
import io.quarkiverse.mcp.server.ToolResponse;
import io.vertx.core.json.JsonObject;
import java.net.ConnectException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolResultsTest {
    private static final GatewayRequest READ = GatewayRequest.get("/usage", Map.of());

    private static String text(ToolResponse response, int index) {
        return ((TextContent) response.content().get(index)).text();
    }

    @Test
    void aSuccessIsTheApisJsonAsItCame() {
        ToolResponse response = ToolResults.of(READ, new GatewayAnswer(200, "{\"data\":{\"plan\":\"free\"}}"));

        assertThat(response.isError()).isFalse();
        assertThat(response.content()).hasSize(1);
        assertThat(text(response, 0)).isEqualTo("{\"data\":{\"plan\":\"free\"}}");
    }

    @Test
    void aRefusalIsAToolErrorThatStartsWithHeraldsCodeAndMessage() {
        String envelope = "{\"error\":{\"code\":\"insufficient_scope\",\"message\":\"This API key lacks the"
                + " posts:write scope.\",\"details\":{\"required_scope\":\"posts:write\"}}}";

        ToolResponse response = ToolResults.of(READ, new GatewayAnswer(403, envelope));

        assertThat(response.isError()).isTrue();
        assertThat(text(response, 0))
                .startsWith("insufficient_scope: This API key lacks the posts:write scope.\n")
                .endsWith(envelope);
    }

    @Test
    void anAnswerWithoutAnEnvelopeStillFailsWithItsStatus() {
        ToolResponse response = ToolResults.of(READ, new GatewayAnswer(502, "<html>Bad gateway</html>"));

        assertThat(response.isError()).isTrue();
        assertThat(text(response, 0)).startsWith("unexpected_response: Herald answered HTTP 502");
    }

    @Test
    void aKeyedRequestSaysWhichKeySoARetryCanReuseIt() {
        GatewayRequest create = GatewayRequest.post("/posts", new JsonObject(), "mcp-1");

        ToolResponse accepted = ToolResults.of(create, new GatewayAnswer(202, "{\"data\":{\"id\":\"pst_1\"}}"));
        ToolResponse lost = ToolResults.unreachable(create, new ConnectException("Connection refused"));

        assertThat(accepted.content())
                .extracting(content -> ((TextContent) content).text())
                .isEqualTo(List.of("{\"data\":{\"id\":\"pst_1\"}}", "idempotency_key: mcp-1"));
        assertThat(lost.isError()).isTrue();
        assertThat(text(lost, 0)).startsWith("service_unavailable: ").contains("idempotency_key mcp-1");
    }
}
