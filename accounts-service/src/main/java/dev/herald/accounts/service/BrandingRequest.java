package dev.herald.accounts.service;

/** A validated {@code PUT /branding} body: the whole branding, each field null when not set. */
public record BrandingRequest(
        String displayName, String logoUrl, String accentColor, String supportUrl, String privacyUrl) {}
