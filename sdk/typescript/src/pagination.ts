/** Cursor pagination as an async iterator. */

export interface Page<T> {
  data: Array<T>;
  meta: { nextCursor: string | null; hasMore: boolean };
}

/**
 * Every item of a list operation, one page at a time: follows `meta.next_cursor` while `meta.has_more`. A page is
 * fetched only when the items before it have been consumed.
 *
 *     for await (const post of paginate((cursor) => herald.posts.listPosts({ limit: 50, cursor }))) { ... }
 */
export async function* paginate<T>(fetchPage: (cursor?: string) => Promise<Page<T>>): AsyncGenerator<T> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    // An answer saying has_more without a cursor would otherwise be asked for its first page again.
    if (!page.meta.hasMore || !page.meta.nextCursor) return;
    cursor = page.meta.nextCursor;
  }
}
