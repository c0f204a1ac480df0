package dev.herald.posts.model;

/** One comment of test mode's simulated audience, as every published test target receives it. */
public record SimulatedComment(String authorName, String authorUsername, String text) {}
