package dev.herald.common.paging;

import dev.herald.common.api.ListEnvelope;
import dev.herald.common.api.ListMeta;
import java.util.List;
import java.util.function.Function;

/** Turns the rows of a keyset query (fetched with {@link PageRequest#fetchSize()}) into a list envelope. */
public final class Page {
    private Page() {}

    public static <R, T> ListEnvelope<T> of(
            List<R> rows,
            PageRequest request,
            Function<R, CursorPosition> position,
            Function<R, T> toWire,
            CursorScope scope,
            CursorCodec codec) {
        boolean hasMore = rows.size() > request.limit();
        List<R> page = hasMore ? rows.subList(0, request.limit()) : rows;
        String next = hasMore ? codec.encode(scope, position.apply(page.get(page.size() - 1))) : null;
        return new ListEnvelope<>(page.stream().map(toWire).toList(), new ListMeta(next, hasMore));
    }
}
