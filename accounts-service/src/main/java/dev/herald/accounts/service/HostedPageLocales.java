package dev.herald.accounts.service;

import java.util.IllformedLocaleException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The languages the hosted connect page speaks and how one is chosen: the session's {@code locale} when its creator
 * set one, else the first language of the browser's {@code Accept-Language} (by q-value) that the page speaks, else
 * English. Only the language counts ({@code de-AT} is German, {@code pt-BR} Portuguese): the page has one translation
 * per language.
 */
public final class HostedPageLocales {
    /** In the order a tie between equal q-values is broken; English first, the fallback. */
    public static final List<String> LANGUAGES = List.of("en", "de", "fr", "es", "pt");

    public static final Locale FALLBACK = Locale.ENGLISH;
    /** Longer than any real tag a creator would send (BCP 47 advises at least 35 characters of storage). */
    public static final int MAX_TAG_LENGTH = 35;

    private HostedPageLocales() {}

    /**
     * A creator's {@code locale}, normalized ({@code DE-at} becomes {@code de-AT}); empty when it is not a well-formed
     * BCP 47 tag or its language is not one the page speaks.
     */
    public static Optional<String> normalizedTag(String tag) {
        if (tag == null || tag.isEmpty() || tag.length() > MAX_TAG_LENGTH) {
            return Optional.empty();
        }
        try {
            // Locale.Builder, unlike Locale.forLanguageTag, refuses an ill-formed tag instead of dropping its tail.
            Locale locale = new Locale.Builder().setLanguageTag(tag).build();
            return LANGUAGES.contains(locale.getLanguage()) ? Optional.of(locale.toLanguageTag()) : Optional.empty();
        } catch (IllformedLocaleException illFormed) {
            return Optional.empty();
        }
    }

    /** The page's language: the session's, else the browser's first the page speaks, else English. */
    public static Locale choose(String sessionLocale, String acceptLanguage) {
        if (sessionLocale != null) {
            Optional<String> tag = normalizedTag(sessionLocale);
            if (tag.isPresent()) {
                return Locale.forLanguageTag(Locale.forLanguageTag(tag.get()).getLanguage());
            }
        }
        return fromAcceptLanguage(acceptLanguage).orElse(FALLBACK);
    }

    /**
     * The browser's preferred language among the page's, honouring q-values ({@code q=0} excludes one); empty for an
     * absent or malformed header, which a browser never sends and which then counts as no preference.
     */
    static Optional<Locale> fromAcceptLanguage(String header) {
        if (header == null || header.isBlank() || header.length() > 4096) {
            return Optional.empty();
        }
        List<Locale.LanguageRange> ranges;
        try {
            // Sorted by weight, highest first, ranges of weight 0 kept but never to be matched.
            ranges = Locale.LanguageRange.parse(header);
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
        for (Locale.LanguageRange range : ranges) {
            if (range.getWeight() <= 0) {
                continue;
            }
            String language = range.getRange().split("-", 2)[0];
            if ("*".equals(language)) {
                return Optional.of(FALLBACK);
            }
            if (LANGUAGES.contains(language)) {
                return Optional.of(Locale.forLanguageTag(language));
            }
        }
        return Optional.empty();
    }
}
