package dev.herald.mcp.tool;

/** One media item of a post as a tool takes it: the {@code media[i]} object of {@code POST /posts}. */
public record MediaItem(String url, String type) {}
