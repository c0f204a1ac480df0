package dev.herald.gateway.service;

import dev.herald.gateway.model.ApiKey;

/** A key just created, with its secret: the one moment the secret exists outside the caller's hands. */
public record IssuedApiKey(ApiKey key, String secret) {}
