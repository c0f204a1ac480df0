package dev.herald.accounts.credentials;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.accounts.support.AccountsTestSupport;
import dev.herald.accounts.support.FakeServices;
import dev.herald.common.crypto.RetiredKeyResealJob;
import dev.herald.common.crypto.SecretCipher;
import dev.herald.common.crypto.SecretCipher.SecretKey;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The re-seal job on this service's sealed grants, stored as bytes: the live grant and a queued revocation's. */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = AccountsTestSupport.DATABASE))
@WithTestResource(value = FakeServices.class, scope = TestResourceScope.MATCHING_RESOURCES)
class GrantResealTest {
    private static final SecretKey K1 = SecretKey.generate("k1");
    private static final SecretKey K2 = SecretKey.generate("k2");

    @Inject
    RetiredKeyResealJob job;

    @Test
    void grantsSealedWithARetiredKeyAreSealedAgainWithTheCurrentOne() throws Exception {
        String account = ResourceIds.newId(IdPrefix.ACCOUNT);
        AccountsTestSupport.execute("""
                insert into accounts (id, workspace_id, mode, platform, external_id, name, username, status, connected_at,
                                      created_at, updated_at)
                values (?, ?, 'live', 'youtube', ?, 'Ada', 'ada', 'connected', now(), now(), now())""", account, ResourceIds.newId(IdPrefix.WORKSPACE), account);
        SecretCipher before = new SecretCipher(K1, List.of());
        AccountsTestSupport.execute(
                "insert into provider_credentials (account_id, ciphertext, updated_at) values (?, ?, now())",
                account,
                bytes(before.encrypt("{\"access_token\":\"live\"}", account)));
        AccountsTestSupport.execute("""
                insert into provider_revocations (account_id, workspace_id, mode, platform, ciphertext, next_attempt_at,
                                                  expires_at, created_at)
                values (?, 'ws_x', 'live', 'youtube', ?, now() + interval '1 day', now() + interval '2 days', now())""", account, bytes(before.encrypt("{\"access_token\":\"old\"}", account)));
        SecretCipher after = new SecretCipher(K2, List.of(K1));

        job.resealAll(after).await().atMost(Duration.ofSeconds(30));

        String grant = AccountsTestSupport.text(
                "select convert_from(ciphertext, 'UTF8') from provider_credentials where account_id = ?", account);
        String revoked = AccountsTestSupport.text(
                "select convert_from(ciphertext, 'UTF8') from provider_revocations where account_id = ?", account);
        assertThat(grant).startsWith("hsc1.k2.");
        assertThat(revoked).startsWith("hsc1.k2.");
        SecretCipher withoutK1 = new SecretCipher(K2, List.of());
        assertThat(withoutK1.decrypt(grant, account)).isEqualTo("{\"access_token\":\"live\"}");
        assertThat(withoutK1.decrypt(revoked, account)).isEqualTo("{\"access_token\":\"old\"}");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
