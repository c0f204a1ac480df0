package dev.herald.accounts.provider;

import dev.herald.common.wire.PinterestBoard;
import dev.herald.common.wire.PinterestBoardSection;
import io.smallrye.mutiny.Uni;

/**
 * Live Pinterest boards and sections (API v5). {@code sandbox} selects Pinterest's trial host, which never
 * shows production boards; {@code bookmark} is Pinterest's cursor (null for the first page).
 */
public interface PinterestBoardsReader {
    /** The code of the failure {@link #sections} ends with when the board is not the account's (or is gone). */
    String BOARD_NOT_FOUND = "board_not_found";

    Uni<ProviderPage<PinterestBoard>> boards(String accessToken, boolean sandbox, String bookmark, int pageSize);

    Uni<ProviderPage<PinterestBoardSection>> sections(
            String accessToken, boolean sandbox, String boardId, String bookmark, int pageSize);
}
