package dev.herald.accounts.provider.pinterest;

import static dev.herald.accounts.provider.http.TokenResponses.text;

import dev.herald.accounts.config.ProvidersConfig;
import dev.herald.accounts.provider.PinterestBoardsReader;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderPage;
import dev.herald.accounts.provider.http.ProviderHttpClient;
import dev.herald.common.wire.PinterestBoard;
import dev.herald.common.wire.PinterestBoardSection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Pinterest boards (https://developers.pinterest.com/docs/api/v5/boards-list) and board sections
 * (https://developers.pinterest.com/docs/api/v5/board_sections-list): {@code items} plus a {@code bookmark} for the
 * next page, {@code page_size} 1 to 250. Trial apps read from the sandbox host
 * (https://developers.pinterest.com/docs/dev-tools/sandbox/).
 */
@ApplicationScoped
public class PinterestBoardsClient implements PinterestBoardsReader {
    private static final Pattern BOARD_ID = Pattern.compile("[0-9]{1,40}");

    private final ProvidersConfig.Pinterest config;
    private final ProviderHttpClient http;

    public PinterestBoardsClient(ProvidersConfig config, ProviderHttpClient http) {
        this.config = config.pinterest();
        this.http = http;
    }

    @Override
    public Uni<ProviderPage<PinterestBoard>> boards(
            String accessToken, boolean sandbox, String bookmark, int pageSize) {
        return page(
                host(sandbox) + "/v5/boards",
                accessToken,
                bookmark,
                pageSize,
                board -> new PinterestBoard(
                        text(board, "id"), text(board, "name"), text(board, "description"), text(board, "privacy")));
    }

    @Override
    public Uni<ProviderPage<PinterestBoardSection>> sections(
            String accessToken, boolean sandbox, String boardId, String bookmark, int pageSize) {
        // The id goes into the path: anything but digits could address another resource.
        if (boardId == null || !BOARD_ID.matcher(boardId).matches()) {
            return Uni.createFrom()
                    .failure(new ProviderException(
                            "invalid_board_id", "a Pinterest board id is 1 to 40 digits", false, false));
        }
        return page(
                host(sandbox) + "/v5/boards/" + boardId + "/sections",
                accessToken,
                bookmark,
                pageSize,
                section -> new PinterestBoardSection(text(section, "id"), text(section, "name")),
                BOARD_NOT_FOUND);
    }

    private <T> Uni<ProviderPage<T>> page(
            String url, String accessToken, String bookmark, int pageSize, Function<JsonObject, T> item) {
        return page(url, accessToken, bookmark, pageSize, item, null);
    }

    /** {@code notFound}: the code for Pinterest's 404 (the board is not this account's, or is gone), if it has a meaning. */
    private <T> Uni<ProviderPage<T>> page(
            String url,
            String accessToken,
            String bookmark,
            int pageSize,
            Function<JsonObject, T> item,
            String notFound) {
        Map<String, String> query = new HashMap<>();
        query.put("page_size", Integer.toString(Math.max(1, Math.min(pageSize, 250))));
        if (bookmark != null) {
            query.put("bookmark", bookmark);
        }
        return http.get(url, query, ProviderHttpClient.bearer(accessToken)).map(response -> {
            if (notFound != null && response.status() == 404) {
                throw new ProviderException(notFound, "Pinterest has no such board for this account", false, false);
            }
            JsonObject body = PinterestApi.ok(response);
            JsonArray items = body.getJsonArray("items", new JsonArray());
            List<T> page = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                page.add(item.apply(items.getJsonObject(i)));
            }
            return new ProviderPage<>(List.copyOf(page), text(body, "bookmark"));
        });
    }

    private String host(boolean sandbox) {
        return sandbox ? config.sandboxApiUrl() : config.apiUrl();
    }
}
