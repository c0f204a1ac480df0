"""Cursor pagination as an iterator."""


def paginate(list_operation, **params):
    """Every item of a list operation, one page at a time: follows ``meta.next_cursor`` while ``meta.has_more``.
    A page is fetched only when the items before it have been consumed.

        for post in paginate(herald.posts.list_posts, profile_id="prf_...", limit=50): ...
    """
    cursor = params.pop("cursor", None)
    while True:
        page = list_operation(**params, cursor=cursor)
        yield from page["data"]
        meta = page.get("meta") or {}
        cursor = meta.get("next_cursor")
        # An answer saying has_more without a cursor would otherwise be asked for its first page again.
        if not meta.get("has_more") or not cursor:
            return
