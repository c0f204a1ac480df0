package dev.herald.common.wire;

/** A section of a Pinterest board; {@code id} is a numeric string and stays a string. */
public record PinterestBoardSection(String id, String name) {}
