package dev.herald.common.wire;

/** A Pinterest board; {@code id} is a numeric string and stays a string. */
public record PinterestBoard(String id, String name, String description, String privacy) {}
