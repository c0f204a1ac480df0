package dev.herald.accounts.support;

import dev.herald.accounts.provider.AuthorizationRequest;
import dev.herald.accounts.provider.OAuthProvider;
import dev.herald.accounts.provider.PinterestBoardsReader;
import dev.herald.accounts.provider.ProviderException;
import dev.herald.accounts.provider.ProviderGrant;
import dev.herald.accounts.provider.ProviderIdentity;
import dev.herald.accounts.provider.ProviderPage;
import dev.herald.accounts.provider.TikTokCreatorInfoReader;
import dev.herald.common.wire.PinterestBoard;
import dev.herald.common.wire.PinterestBoardSection;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.TikTokPublishingOptions;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Provider stand-ins for live accounts in tests: they record what they were asked and answer fixed data.
 * Singletons, not application-scoped: tests read their public fields, which a client proxy would not forward.
 */
public final class FakeProviders {
    private FakeProviders() {}

    /**
     * Not an alternative: providers are picked by platform from all OAuthProvider beans, and an alternative
     * would hide the other platforms' providers from the connect-flow tests.
     */
    @Singleton
    public static class YouTube implements OAuthProvider {
        public final List<String> revokedAccessTokens = new CopyOnWriteArrayList<>();
        /** How many revocations fail (retryably) before they succeed. */
        public final AtomicInteger failuresLeft = new AtomicInteger();

        @Override
        public Platform platform() {
            return Platform.YOUTUBE;
        }

        @Override
        public boolean supportsPkce() {
            return true;
        }

        @Override
        public URI authorizationUrl(AuthorizationRequest request) {
            return URI.create("https://accounts.example/authorize?state=" + request.state());
        }

        @Override
        public Uni<ProviderGrant> exchangeCode(String code, String codeVerifier, URI redirectUri) {
            return Uni.createFrom().failure(new ProviderException("unsupported", "not in these tests", false, false));
        }

        @Override
        public Uni<ProviderGrant> refresh(ProviderGrant grant) {
            return Uni.createFrom().item(grant);
        }

        @Override
        public Uni<Void> revoke(ProviderGrant grant) {
            if (failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                return Uni.createFrom().failure(new ProviderException("backend_error", "try later", false, true));
            }
            revokedAccessTokens.add(grant.accessToken());
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<List<ProviderIdentity>> identities(ProviderGrant grant) {
            return Uni.createFrom().item(List.of());
        }

        @Override
        public Uni<Void> check(ProviderGrant grant, String externalId) {
            return Uni.createFrom().voidItem();
        }
    }

    @Singleton
    @Alternative
    @Priority(1)
    public static class TikTok implements TikTokCreatorInfoReader {
        public final AtomicInteger calls = new AtomicInteger();
        public final List<String> tokens = new CopyOnWriteArrayList<>();
        /** When set, every read fails with it (TikTok is down, or refuses the token). */
        public volatile ProviderException failure;

        @Override
        public Uni<TikTokPublishingOptions> creatorInfo(String accessToken) {
            calls.incrementAndGet();
            tokens.add(accessToken);
            if (failure != null) {
                return Uni.createFrom().failure(failure);
            }
            return Uni.createFrom()
                    .item(new TikTokPublishingOptions(
                            "Live Creator",
                            "live.creator",
                            null,
                            List.of("PUBLIC_TO_EVERYONE", "SELF_ONLY"),
                            true,
                            false,
                            false,
                            180));
        }
    }

    @Singleton
    @Alternative
    @Priority(1)
    public static class Pinterest implements PinterestBoardsReader {
        public final AtomicInteger calls = new AtomicInteger();
        public final List<Boolean> sandboxFlags = new CopyOnWriteArrayList<>();

        @Override
        public Uni<ProviderPage<PinterestBoard>> boards(
                String accessToken, boolean sandbox, String bookmark, int pageSize) {
            calls.incrementAndGet();
            sandboxFlags.add(sandbox);
            if (bookmark == null) {
                return Uni.createFrom()
                        .item(new ProviderPage<>(
                                List.of(new PinterestBoard("9007199254740993", "First", "", "PUBLIC")), "bookmark-2"));
            }
            return Uni.createFrom()
                    .item(new ProviderPage<>(
                            List.of(new PinterestBoard("9007199254740995", "Second", "", "SECRET")), null));
        }

        @Override
        public Uni<ProviderPage<PinterestBoardSection>> sections(
                String accessToken, boolean sandbox, String boardId, String bookmark, int pageSize) {
            calls.incrementAndGet();
            return Uni.createFrom().item(new ProviderPage<>(List.of(new PinterestBoardSection("4242", "Only")), null));
        }
    }
}
