package dev.herald.system;

import static dev.herald.system.PostsPipelineIT.account;
import static dev.herald.system.PostsPipelineIT.linkedIn;
import static dev.herald.system.PostsPipelineIT.testKey;
import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.RsaKeys;
import dev.herald.common.crypto.SecretCipher;
import dev.herald.local.KeyDirectories;
import dev.herald.local.LocalSecrets;
import dev.herald.local.LocalSuite;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Both keys rotate, step by step as docs/operations.md ("Secret rotation") tells operators, while customers keep
 * creating posts, reading them back, listing accounts and registering webhooks: not one request may be refused
 * (every answer 2xx, no client retries), and every post must still publish (the services' own calls to each other
 * carry internal JWTs). The suite's services read their keys from files (as from a mounted Secret) and read them again
 * within a second ({@code HERALD_*_RELOAD_INTERVAL} in {@link RunningSuite}), so each step is a file change. Isolated:
 * the keys change for every service at once.
 */
@Isolated
class KeyRotationIT {
    /** Twice the suite's reload interval, and then some for a busy machine. */
    private static final Duration STEP = Duration.ofSeconds(4);

    @Test
    void bothKeysRotateUnderSteadyLoadWithNoRequestRefused() throws Exception {
        LocalSuite suite = RunningSuite.get();
        LocalSecrets secrets = suite.secrets();
        PublicKey oldPublic = RsaKeys.readJwks(secrets.internalJwtVerifyKeys()).get(secrets.internalJwtSigningKeyId());
        String oldKid = secrets.internalJwtSigningKeyId();
        KeyPair next = RsaKeys.generate();
        String newKid = "rotated-" + UUID.randomUUID().toString().substring(0, 8);
        String oldCipherKey = secrets.secretCipherKey();
        SecretCipher.SecretKey generated = SecretCipher.SecretKey.generate("rotated2");
        String newCipherKey = generated.id() + ":" + Base64.getEncoder().encodeToString(generated.material());
        // A live account's provider grant is sealed with the cipher key: after the rotation it must still open.
        HostedConnect.LiveWorkspace live = HostedConnect.LiveWorkspace.create("Key rotation");
        String liveAccount =
                HostedConnect.accountNamed(HostedConnect.connect(live, "linkedin"), "urn:li:person:hF4k3Mbr0q");

        // So is a webhook endpoint's signing secret: after the rotation it must still sign.
        WebhooksIT.Receiver receiver = new WebhooksIT.Receiver(n -> 200);
        String announcing = testKey("Key rotation webhooks");
        String announcingAccount = account(announcing, "linkedin", "brand");
        WebhooksIT.Endpoint endpoint = WebhooksIT.register(announcing, receiver.url(), "post.published");

        try (receiver;
                Load load = Load.start(3)) {
            Thread.sleep(STEP.toMillis());
            // Internal JWT. 1: every service accepts the new key beside the old one; the signers still use the old.
            KeyDirectories.writeInternalJwt(
                    suite.internalJwtKeyDirectory(),
                    RsaKeys.jwks(ordered(oldKid, oldPublic, newKid, next.getPublic())),
                    oldKid,
                    secrets.internalJwtPrivateKey());
            Thread.sleep(STEP.toMillis());
            // 2: the signers sign with the new key.
            KeyDirectories.writeInternalJwt(
                    suite.internalJwtKeyDirectory(),
                    RsaKeys.jwks(ordered(oldKid, oldPublic, newKid, next.getPublic())),
                    newKid,
                    RsaKeys.privateKeyPem(next.getPrivate()));
            // 3: once every token signed with the old key has expired (the suite's tokens live 30 s, plus the
            // verifiers' 5 s of clock skew), the old key goes.
            Thread.sleep(STEP.plusSeconds(35).toMillis());
            KeyDirectories.writeInternalJwt(
                    suite.internalJwtKeyDirectory(),
                    RsaKeys.jwks(Map.of(newKid, next.getPublic())),
                    newKid,
                    RsaKeys.privateKeyPem(next.getPrivate()));
            Thread.sleep(STEP.toMillis());

            // Cipher. 1: the new key opens values everywhere before any service seals with it.
            KeyDirectories.writeCipher(suite.cipherKeyDirectory(), oldCipherKey, newCipherKey);
            Thread.sleep(STEP.toMillis());
            // 2: it seals new values, and the re-seal jobs seal the stored ones again with it.
            KeyDirectories.writeCipher(suite.cipherKeyDirectory(), newCipherKey, oldCipherKey);
            awaitNothingSealedWithARetiredKey("accounts-service");
            awaitNothingSealedWithARetiredKey("webhooks-service");
            // 3: the gauges read 0, so the old key goes.
            KeyDirectories.writeCipher(suite.cipherKeyDirectory(), newCipherKey, "");
            Thread.sleep(STEP.toMillis());

            Load.Summary summary = load.finish();
            System.out.printf("key rotation under load: %s%n", summary);
            assertThat(summary.refused())
                    .as("requests refused during the rotation")
                    .isEmpty();
            assertThat(summary.answered()).as("requests answered").isGreaterThan(100);
            for (Load.Created post : summary.posts()) {
                assertThat(PostsPipelineIT.awaitFinal(post.key(), post.id()).getString("data.status"))
                        .as("post %s", post.id())
                        .isEqualTo("published");
            }

            String announced = PostsPipelineIT.accepted(announcing, linkedIn(announcingAccount));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (receiver.requests().isEmpty()) {
                assertThat(System.nanoTime())
                        .as("the webhook of post %s", announced)
                        .isLessThan(deadline);
                Thread.sleep(250);
            }
            assertThat(receiver.requests().get(0).verify(endpoint.secret()).getString("data.id"))
                    .isEqualTo(announced);
        }
        // The live account's grant, sealed with the old cipher key before the rotation, opens with the new one.
        String published = live.post(linkedIn(liveAccount));
        assertThat(PostsPipelineIT.awaitPost(
                                live.key(),
                                published,
                                post -> PostsPipelineIT.FINAL.contains(post.getString("data.status")),
                                60_000)
                        .getString("data.status"))
                .isEqualTo("published");
    }

    private static void awaitNothingSealedWithARetiredKey(String module) throws InterruptedException {
        int port = RunningSuite.get().managementPorts().get(module);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Supplier<Double> stale = () -> io.restassured.RestAssured.given()
                .baseUri("http://127.0.0.1:" + port)
                .get("/q/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString()
                .lines()
                .filter(line -> line.startsWith("herald_secrets_retired_key_values{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
        // The gauge exists from the start, at 0 until the first pass under the new key counts what is left.
        Thread.sleep(STEP.toMillis());
        while (stale.get() > 0) {
            assertThat(System.nanoTime())
                    .as("%s re-sealed every stored value", module)
                    .isLessThan(deadline);
            Thread.sleep(500);
        }
    }

    private static Map<String, PublicKey> ordered(String kid1, PublicKey one, String kid2, PublicKey two) {
        Map<String, PublicKey> keys = new LinkedHashMap<>();
        keys.put(kid1, one);
        keys.put(kid2, two);
        return keys;
    }

    /**
     * Customers at a steady pace, one client per workspace: each round creates a post, reads it back, lists the
     * accounts and, every fifth round, registers a webhook endpoint (its secret sealed with the cipher key of the
     * moment). Every answer must be 2xx the first time: nothing is retried.
     */
    private static final class Load implements AutoCloseable {
        private static final long PACE_MILLIS = 300;

        record Created(String key, String id) {}

        record Summary(int answered, List<String> refused, List<Created> posts) {
            @Override
            public String toString() {
                return answered + " requests answered, " + refused.size() + " refused, " + posts.size()
                        + " posts created";
            }
        }

        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger answered = new AtomicInteger();
        private final List<String> refused = new CopyOnWriteArrayList<>();
        private final List<Created> posts = new CopyOnWriteArrayList<>();
        private final ExecutorService clients;
        private final List<Future<?>> work = new ArrayList<>();

        private Load(int clientCount) {
            clients = Executors.newFixedThreadPool(clientCount);
        }

        static Load start(int clientCount) {
            Load load = new Load(clientCount);
            for (int i = 0; i < clientCount; i++) {
                String key = testKey("Key rotation " + i);
                String accountId = account(key, "linkedin", "brand");
                load.work.add(load.clients.submit(() -> {
                    for (int n = 0; load.running.get(); n++) {
                        load.round(key, accountId, n);
                        Thread.sleep(PACE_MILLIS);
                    }
                    return null;
                }));
            }
            return load;
        }

        private void round(String key, String accountId, int n) {
            Response created = call(
                    "POST /posts",
                    () -> as(key).contentType(ContentType.JSON)
                            .header("Idempotency-Key", UUID.randomUUID().toString())
                            .body(linkedIn(accountId))
                            .post("/posts"));
            if (created == null) {
                return;
            }
            String id = created.path("data.id");
            posts.add(new Created(key, id));
            call("GET /posts/{id}", () -> as(key).get("/posts/" + id));
            call("GET /accounts", () -> as(key).get("/accounts"));
            if (n % 5 == 0) {
                call(
                        "POST /webhooks",
                        () -> as(key).contentType(ContentType.JSON)
                                .body(
                                        "{\"url\":\"http://127.0.0.1:9/rotation\",\"events\":[\"usage.threshold_reached\"]}")
                                .post("/webhooks"));
            }
        }

        /** The answer when it is 2xx; otherwise null, and the request counted as refused. */
        private Response call(String what, Supplier<Response> request) {
            try {
                Response response = request.get();
                if (response.statusCode() / 100 == 2) {
                    answered.incrementAndGet();
                    return response;
                }
                refused.add(what + ": " + response.statusCode() + " " + response.asString());
            } catch (Exception e) {
                // No connection at all (rest-assured throws the checked ConnectException undeclared).
                refused.add(what + ": " + e);
            }
            return null;
        }

        Summary finish() throws Exception {
            running.set(false);
            for (Future<?> future : work) {
                future.get();
            }
            return new Summary(answered.get(), List.copyOf(refused), List.copyOf(posts));
        }

        @Override
        public void close() {
            running.set(false);
            clients.shutdownNow();
        }
    }
}
