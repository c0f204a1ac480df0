package dev.herald.accounts.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class HostedPageLocalesTest {
    private static final Locale GERMAN = Locale.forLanguageTag("de");

    @Test
    void aCreatorsTagIsAcceptedWhenItsLanguageIsOneThePageSpeaksAndNormalized() {
        assertThat(HostedPageLocales.normalizedTag("de")).contains("de");
        assertThat(HostedPageLocales.normalizedTag("DE-at")).contains("de-AT");
        assertThat(HostedPageLocales.normalizedTag("pt-BR")).contains("pt-BR");
        assertThat(HostedPageLocales.normalizedTag("es-419")).contains("es-419");
        assertThat(HostedPageLocales.normalizedTag("fr-Latn-CA")).contains("fr-Latn-CA");
    }

    @Test
    void anotherLanguageOrAnIllFormedTagIsRefused() {
        assertThat(HostedPageLocales.normalizedTag("ja")).isEmpty();
        assertThat(HostedPageLocales.normalizedTag("it-IT")).isEmpty();
        assertThat(HostedPageLocales.normalizedTag("de_DE")).isEmpty();
        assertThat(HostedPageLocales.normalizedTag("de--AT")).isEmpty();
        assertThat(HostedPageLocales.normalizedTag("")).isEmpty();
        assertThat(HostedPageLocales.normalizedTag(null)).isEmpty();
        assertThat(HostedPageLocales.normalizedTag("de-" + "x".repeat(40))).isEmpty();
    }

    @Test
    void theSessionsLocaleWinsOverTheBrowsersAndOnlyItsLanguageCounts() {
        assertThat(HostedPageLocales.choose("de-AT", "fr")).isEqualTo(GERMAN);
        assertThat(HostedPageLocales.choose("pt-BR", null)).isEqualTo(Locale.forLanguageTag("pt"));
    }

    @Test
    void withoutASessionLocaleTheBrowsersFirstSpokenLanguageByQValueDecides() {
        assertThat(HostedPageLocales.choose(null, "ja, es;q=0.4, fr;q=0.8")).isEqualTo(Locale.FRENCH);
        assertThat(HostedPageLocales.choose(null, "de-CH,de;q=0.9,en;q=0.8")).isEqualTo(GERMAN);
        assertThat(HostedPageLocales.choose(null, "pt-BR")).isEqualTo(Locale.forLanguageTag("pt"));
        // q=0 means "not this one".
        assertThat(HostedPageLocales.choose(null, "de;q=0, es;q=0.1")).isEqualTo(Locale.forLanguageTag("es"));
    }

    @Test
    void englishWhenNothingElseIsSpokenOrTheHeaderIsMissingOrMalformed() {
        assertThat(HostedPageLocales.choose(null, null)).isEqualTo(Locale.ENGLISH);
        assertThat(HostedPageLocales.choose(null, "ja, zh;q=0.5")).isEqualTo(Locale.ENGLISH);
        assertThat(HostedPageLocales.choose(null, "*")).isEqualTo(Locale.ENGLISH);
        assertThat(HostedPageLocales.choose(null, "de;q=abc")).isEqualTo(Locale.ENGLISH);
        assertThat(HostedPageLocales.choose("xx", "fr")).isEqualTo(Locale.FRENCH);
    }
}
