package dev.herald.accounts.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.accounts.service.HostedPageLocales;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every word of the hosted page in every language: Quarkus fails the build when an English text is missing, but
 * falls back to English without a word when a translation lacks a key, so this test is what keeps the five complete.
 */
class HostedPageMessagesTest {
    private static final Pattern PARAMETER = Pattern.compile("\\{(\\w+)}");

    private static Properties messages(String language) throws IOException {
        Properties texts = new Properties();
        try (InputStream in =
                HostedPageMessagesTest.class.getResourceAsStream("/messages/msg_" + language + ".properties")) {
            assertThat(in).as("messages/msg_%s.properties", language).isNotNull();
            texts.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        return texts;
    }

    private static Set<String> keys() {
        return Arrays.stream(HostedPageMessages.class.getDeclaredMethods())
                .map(Method::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void everyLanguageHasEveryKeyAndNoOther() throws IOException {
        for (String language : HostedPageLocales.LANGUAGES) {
            assertThat(messages(language).stringPropertyNames())
                    .as("the keys of msg_%s.properties", language)
                    .containsExactlyInAnyOrderElementsOf(keys());
        }
    }

    @Test
    void everyTranslationIsWrittenAndUsesTheEnglishTextsParameters() throws IOException {
        Properties english = messages("en");
        for (String language : HostedPageLocales.LANGUAGES) {
            Properties texts = messages(language);
            for (String key : texts.stringPropertyNames()) {
                assertThat(texts.getProperty(key)).as("%s in %s", key, language).isNotBlank();
                assertThat(parameters(texts.getProperty(key)))
                        .as("the parameters of %s in %s", key, language)
                        .isEqualTo(parameters(english.getProperty(key)));
            }
        }
    }

    private static Set<String> parameters(String text) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = PARAMETER.matcher(text);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }
}
