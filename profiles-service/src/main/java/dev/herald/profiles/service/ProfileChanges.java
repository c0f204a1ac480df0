package dev.herald.profiles.service;

import dev.herald.common.validation.FieldValue;

/** A validated PATCH: each field absent (keep), null (clear, where allowed) or a new value. */
public record ProfileChanges(FieldValue<String> name, FieldValue<String> externalId) {}
