package dev.herald.sdk;

import dev.herald.sdk.generated.ApiException;
import dev.herald.sdk.generated.model.ListMeta;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * Cursor pagination as an {@link Iterable}: every item of a list operation, one page at a time, following
 * {@code meta.next_cursor} while {@code meta.has_more} (the API's lists are newest first and the cursor is opaque). A
 * page is fetched only when the items before it have been consumed.
 *
 * <pre>{@code
 * for (Post post : Pages.iterate(
 *         cursor -> herald.posts().listPosts(null, null, null, null, null, 50, cursor),
 *         PostList::getData, PostList::getMeta)) { ... }
 * }</pre>
 */
public final class Pages {
    private Pages() {}

    /** A list operation called with a cursor (null for the first page). */
    @FunctionalInterface
    public interface Fetcher<P> {
        P fetch(String cursor) throws ApiException;
    }

    /** A page's fetch could not reach the API (the generated methods' checked {@link ApiException}, unchecked). */
    public static final class FetchFailed extends RuntimeException {
        FetchFailed(ApiException cause) {
            super(cause.getMessage(), cause);
        }
    }

    public static <P, T> Iterable<T> iterate(
            Fetcher<P> fetcher, Function<P, List<T>> items, Function<P, ListMeta> meta) {
        return () -> new Iterator<>() {
            private Iterator<T> page = List.<T>of().iterator();
            private String cursor;
            private boolean more = true;

            @Override
            public boolean hasNext() {
                while (!page.hasNext() && more) {
                    P fetched;
                    try {
                        fetched = fetcher.fetch(cursor);
                    } catch (ApiException e) {
                        throw new FetchFailed(e);
                    }
                    ListMeta pageMeta = meta.apply(fetched);
                    page = items.apply(fetched).iterator();
                    cursor = pageMeta.getNextCursor();
                    // An API that said has_more without a cursor would otherwise be asked for its first page again.
                    more = Boolean.TRUE.equals(pageMeta.getHasMore()) && cursor != null;
                }
                return page.hasNext();
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return page.next();
            }
        };
    }
}
