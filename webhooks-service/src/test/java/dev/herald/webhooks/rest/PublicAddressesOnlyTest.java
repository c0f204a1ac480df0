package dev.herald.webhooks.rest;

import static dev.herald.webhooks.support.WebhooksTestSupport.as;
import static dev.herald.webhooks.support.WebhooksTestSupport.await;
import static dev.herald.webhooks.support.WebhooksTestSupport.deliveriesOf;
import static dev.herald.webhooks.support.WebhooksTestSupport.finalized;
import static dev.herald.webhooks.support.WebhooksTestSupport.send;
import static dev.herald.webhooks.support.WebhooksTestSupport.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.herald.common.auth.Mode;
import dev.herald.common.events.PostFinalizedEvent;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.webhooks.service.SigningSecrets;
import dev.herald.webhooks.support.Receiver;
import dev.herald.webhooks.support.WebhooksTestSupport;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SSRF guard as production runs it ({@code allow-private-urls=false}): receivers must be HTTPS on public
 * addresses, at creation and again at every attempt.
 */
@QuarkusTest
@TestProfile(PublicAddressesOnlyTest.Production.class)
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = WebhooksTestSupport.DATABASE))
class PublicAddressesOnlyTest {
    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @Inject
    SigningSecrets secrets;

    public static class Production implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("herald.webhooks.allow-private-urls", "false");
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://127.0.0.1/hooks",
                "https://localhost:8443/hooks",
                "https://10.1.2.3/",
                "https://172.16.0.1/",
                "https://192.168.1.1/",
                "https://169.254.169.254/latest/meta-data/",
                "https://100.64.0.1/",
                "https://0.0.0.0/",
                "https://[::1]/",
                "https://[fd00::1]/",
                "https://[fe80::1]/",
                "https://[::ffff:127.0.0.1]/",
                "https://224.0.0.1/"
            })
    void api7_aUrlThatIsOrResolvesToANonPublicAddressIsRefused(String url) {
        as(workspace, Mode.TEST)
                .body("{\"url\":\"" + url + "\",\"events\":[\"post.published\"]}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("url"))
                .body("error.details.errors[0].code", equalTo("invalid_value"))
                .body(
                        "error.details.errors[0].message",
                        org.hamcrest.Matchers.startsWith("url must resolve to public addresses only"));
    }

    @Test
    void api7_plainHttpIsRefused() {
        as(workspace, Mode.TEST)
                .body("{\"url\":\"http://example.com/hooks\",\"events\":[\"post.published\"]}")
                .post("/webhooks")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("invalid_format"))
                .body("error.details.errors[0].message", equalTo("url must be an absolute https URL."));
    }

    @Test
    void api7_theAddressIsCheckedAgainAtEveryAttemptAgainstDnsRebinding() throws Exception {
        try (Receiver receiver = new Receiver()) {
            // An endpoint that was public when registered and whose host now resolves to a local address (DNS can
            // change): stored directly, since the API would refuse it today.
            String endpoint = ResourceIds.newId(IdPrefix.WEBHOOK_ENDPOINT);
            update(
                    "insert into endpoints (id, workspace_id, mode, url, events, status, created_at, updated_at) "
                            + "values (?, ?, 'test', ?, array['post.published'], 'enabled', now(), now())",
                    endpoint,
                    workspace,
                    "https://127.0.0.1:" + receiver.port() + "/hooks");
            update(
                    "insert into endpoint_secrets (endpoint_id, sealed, created_at) values (?, ?, now())",
                    endpoint,
                    secrets.seal(SigningSecrets.generate(), endpoint));
            send(finalized(workspace, Mode.TEST, PostFinalizedEvent.PUBLISHED));

            await(
                    "the attempt was refused",
                    () -> !deliveriesOf(endpoint).isEmpty()
                            && deliveriesOf(endpoint).get(0).get("last_error") != null);
            Thread.sleep(500);
            assertThat(receiver.requests()).isEmpty();
            assertThat((String) deliveriesOf(endpoint).get(0).get("last_error"))
                    .isEqualTo(
                            "The endpoint's URL must resolve to public addresses only (127.0.0.1 resolves to 127.0.0.1).");
        }
    }
}
