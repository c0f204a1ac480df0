package dev.herald.webhooks.service;

import static dev.herald.webhooks.support.WebhooksTestSupport.register;
import static dev.herald.webhooks.support.WebhooksTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.crypto.RetiredKeyResealJob;
import dev.herald.common.crypto.RetiredKeyResealJob.Pass;
import dev.herald.common.crypto.SecretCipher;
import dev.herald.common.crypto.SecretCipher.SecretKey;
import dev.herald.common.crypto.SecretCiphers;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.webhooks.support.WebhooksTestSupport;
import dev.herald.webhooks.support.WebhooksTestSupport.Registered;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A cipher key rotation finished by the re-seal job against the real database: the service reads its keys from a
 * directory (as from a mounted Secret), so each step is a file change, no restart.
 */
@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
@TestProfile(RetiredKeyResealTest.KeysInADirectory.class)
class RetiredKeyResealTest {
    static final Path KEYS = directory();
    static final SecretKey K1 = SecretKey.generate("k1");
    static final SecretKey K2 = SecretKey.generate("k2");
    static final SecretKey K3 = SecretKey.generate("k3");

    public static class KeysInADirectory implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            useKeys(K1);
            return Map.of(
                    "herald.secret-cipher.key-directory", KEYS.toString(),
                    "herald.secret-cipher.reload-interval", "PT0.1S",
                    // The test runs each pass itself.
                    "herald.secret-cipher.reseal.interval", "PT1H");
        }
    }

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @Inject
    RetiredKeyResealJob job;

    @Inject
    SecretCiphers ciphers;

    @Test
    void valuesSealedWithARetiredKeyAreSealedAgainWithTheCurrentOneOnceOnly() throws Exception {
        useKeys(K1);
        awaitCurrentKey("k1");
        List<Registered> endpoints = registerThree();
        assertThat(sealedValuesOf(endpoints)).allMatch(value -> value.startsWith("hsc1.k1."));

        useKeys(K2, K1);
        awaitCurrentKey("k2");
        Pass first = onlyPass(job.resealAll().await().atMost(Duration.ofSeconds(30)));

        assertThat(first.resealed()).isEqualTo(3);
        assertThat(sealedValuesOf(endpoints)).allMatch(value -> value.startsWith("hsc1.k2."));
        // Values of other test classes' runs (their keys are gone) do not open and stay counted.
        assertThat(first.remaining()).isEqualTo(first.unopenable());
        // Idempotent: nothing is left sealed with k1.
        assertThat(onlyPass(job.resealAll().await().atMost(Duration.ofSeconds(30)))
                        .resealed())
                .isZero();

        // k1 removed: every secret still opens (the signing secrets are bound to their endpoint).
        useKeys(K2);
        awaitCurrentKeys("k2", 1);
        for (int i = 0; i < endpoints.size(); i++) {
            assertThat(ciphers.current()
                            .decrypt(
                                    sealedValuesOf(endpoints).get(i),
                                    endpoints.get(i).id()))
                    .isEqualTo(endpoints.get(i).secret());
        }
    }

    @Test
    void replicasPassingAtOnceNeverResealOneValueTwice() throws Exception {
        useKeys(K2);
        awaitCurrentKey("k2");
        List<Registered> endpoints = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            endpoints.addAll(registerThree());
        }
        // Every value sealed with k2: these endpoints', and any another test left.
        long sealedWithK2 = (Long) rows("select count(*) as n from endpoint_secrets where sealed like 'hsc1.k2.%'")
                .get(0)
                .get("n");
        useKeys(K3, K2);
        awaitCurrentKey("k3");
        SecretCipher cipher = ciphers.current();

        // Two replicas' passes at once, each with its own connections and claims.
        CompletableFuture<Pass> one =
                job.resealAll(cipher).map(RetiredKeyResealTest::onlyPass).subscribeAsCompletionStage();
        CompletableFuture<Pass> other =
                job.resealAll(cipher).map(RetiredKeyResealTest::onlyPass).subscribeAsCompletionStage();

        assertThat(one.get().resealed() + other.get().resealed()).isEqualTo(sealedWithK2);
        assertThat(sealedValuesOf(endpoints)).allMatch(value -> value.startsWith("hsc1.k3."));
    }

    private List<Registered> registerThree() {
        List<Registered> endpoints = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            endpoints.add(register(workspace, Mode.TEST, "http://127.0.0.1:9/" + i, "post.published"));
        }
        return endpoints;
    }

    private static List<String> sealedValuesOf(List<Registered> endpoints) throws Exception {
        List<String> values = new ArrayList<>();
        for (Registered endpoint : endpoints) {
            values.add((String) rows("select sealed from endpoint_secrets where endpoint_id = ?", endpoint.id())
                    .get(0)
                    .get("sealed"));
        }
        return values;
    }

    private static Pass onlyPass(Map<?, Pass> passes) {
        assertThat(passes).hasSize(1);
        return passes.values().iterator().next();
    }

    private void awaitCurrentKey(String id) throws Exception {
        awaitCurrentKeys(id, -1);
    }

    /** Until the service has read the files again: current key {@code id} and, unless -1, this many keys in all. */
    private void awaitCurrentKeys(String id, int keys) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!ciphers.current().currentKeyId().equals(id)
                || (keys >= 0 && !ciphers.current().toString().endsWith("keys=[" + id + "]]"))) {
            assertThat(System.nanoTime()).as("the keys read again").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static void useKeys(SecretKey current, SecretKey... retired) {
        try {
            List<String> others = new ArrayList<>();
            for (SecretKey key : retired) {
                others.add(text(key));
            }
            // Retired keys first: a reload between the two writes sees either a set that repeats a key (refused, the
            // keys before are kept) or the final one, never a new current key without the old one beside it.
            write("retired-keys", String.join(",", others));
            write("current-key", text(current));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(String name, String text) throws IOException {
        Path next = KEYS.resolve(name + ".next");
        Files.writeString(next, text);
        Files.move(next, KEYS.resolve(name), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static String text(SecretKey key) {
        return key.id() + ":" + Base64.getEncoder().encodeToString(key.material());
    }

    private static Path directory() {
        try {
            return Files.createTempDirectory("herald-cipher-keys");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
