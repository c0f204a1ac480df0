package dev.herald.accounts.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.herald.accounts.provider.http.ConfiguredOAuthProvider;
import dev.herald.common.crypto.SecretCipher;
import dev.herald.common.crypto.SecretCiphers;
import dev.herald.common.wire.Platform;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The service starts with no platform configured (as local and test runs are), and says so when asked. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "accounts_test"))
class ProviderBeansTest {
    @Inject
    @Any
    Instance<OAuthProvider> providers;

    @Inject
    OAuthProviders byPlatform;

    @Inject
    TikTokCreatorInfoReader creatorInfo;

    @Inject
    PinterestBoardsReader boards;

    @Inject
    SecretCiphers ciphers;

    @Test
    void everyPlatformHasOneLiveProviderThatRefusesUntilConfigured() {
        Set<Platform> platforms = EnumSet.noneOf(Platform.class);
        // the built-in providers; this module's tests add configured fakes for some platforms beside them
        for (OAuthProvider provider : providers.stream()
                .filter(ConfiguredOAuthProvider.class::isInstance)
                .toList()) {
            assertThat(provider.configured()).isFalse();
            assertThat(platforms.add(provider.platform()))
                    .as("one provider per platform")
                    .isTrue();
            ProviderException refusal = catchThrowableOfType(
                    ProviderException.class,
                    () -> provider.authorizationUrl(new AuthorizationRequest(
                            "state", "challenge", URI.create("https://herald.example/callback"))));
            assertThat(refusal).as(provider.platform().wireName()).isNotNull();
            assertThat(refusal.code()).isEqualTo("provider_not_configured");
            assertThat(refusal.getMessage())
                    .contains("herald.providers." + provider.platform().wireName() + ".client-id");
        }
        assertThat(platforms).containsExactlyInAnyOrder(Platform.values());
        assertThat(creatorInfo).isNotNull();
        assertThat(boards).isNotNull();
    }

    @Test
    void aConfiguredProviderIsPreferredOverAnUnconfiguredOneForTheSamePlatform() {
        // LinkedIn and YouTube have configured test fakes; TikTok has only its built-in, unconfigured provider
        assertThat(byPlatform.forPlatform(Platform.LINKEDIN)).get().isInstanceOf(FakeLinkedInProvider.class);
        assertThat(byPlatform.forPlatform(Platform.YOUTUBE)).get().isNotInstanceOf(ConfiguredOAuthProvider.class);
        assertThat(byPlatform.forPlatform(Platform.TIKTOK))
                .get()
                .isInstanceOf(ConfiguredOAuthProvider.class)
                .matches(provider -> !provider.configured());
    }

    @Test
    void testRunsSealSecretsWithAnEphemeralKey() {
        SecretCipher cipher = ciphers.current();
        String sealed = cipher.encrypt("act.token", "acc_1");

        assertThat(cipher.currentKeyId()).isEqualTo("ephemeral");
        assertThat(cipher.decrypt(sealed, "acc_1")).isEqualTo("act.token");
    }
}
