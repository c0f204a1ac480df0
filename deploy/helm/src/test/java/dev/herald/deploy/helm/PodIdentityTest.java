package dev.herald.deploy.helm;

import static dev.herald.deploy.helm.HeraldChartTest.SERVICES;
import static dev.herald.deploy.helm.RenderedChart.RELEASE;
import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Who the pods run as (the release's ServiceAccount) and what rolls them (checksum/secret). */
class PodIdentityTest {
    /** Every optional Secret reference switched on, so that each is read by someone. */
    private static final Consumer<TemplateCommand> EVERY_SECRET =
            template -> template.set("secrets.connect.existingSecret", "herald-connect")
                    .set("secrets.providers.existingSecret", "herald-providers")
                    .set("kafka.saslJaasConfigSecret.name", "herald-kafka")
                    .set("services.posts-service.databaseSecret", "herald-db-posts-service")
                    .set("dashboard.oidc.issuer", "https://login.example.com/realms/herald")
                    .set("dashboard.oidc.clientId", "herald-dashboard")
                    .set("dashboard.oidc.clientSecret.secretName", "herald-oidc");

    @AfterEach
    void emptyTheCluster() {
        KubernetesApiStub.secrets.clear();
    }

    @Test
    void everyPodRunsAsTheReleasesServiceAccountWhichMountsNoToken() {
        RenderedChart chart = HeraldChartTest.rendered("values.yaml");

        ServiceAccount account = chart.get(ServiceAccount.class, RELEASE);
        assertThat(account.getAutomountServiceAccountToken()).isFalse();
        assertThat(chart.all(ServiceAccount.class)).hasSize(1);
        for (String service : SERVICES) {
            PodSpec pod = chart.deployment(service).getSpec().getTemplate().getSpec();
            assertThat(pod.getServiceAccountName()).as(service).isEqualTo(RELEASE);
            assertThat(pod.getAutomountServiceAccountToken()).as(service).isFalse();
        }
        // The topic Job as a plain Job runs as the account too (as a pre-install hook it would run before it exists).
        PodSpec topics = RenderedChart.render(null, template -> template.set("topics.hook", "false"))
                .get(Job.class, RELEASE + "-create-topics")
                .getSpec()
                .getTemplate()
                .getSpec();
        assertThat(topics.getServiceAccountName()).isEqualTo(RELEASE);
    }

    @Test
    void anExistingAccountIsUsedInsteadOfCreatingOne() {
        RenderedChart chart = RenderedChart.render(
                null,
                template ->
                        template.set("serviceAccount.create", "false").set("serviceAccount.name", "platform-herald"));

        assertThat(chart.all(ServiceAccount.class)).isEmpty();
        for (String service : SERVICES) {
            assertThat(chart.deployment(service)
                            .getSpec()
                            .getTemplate()
                            .getSpec()
                            .getServiceAccountName())
                    .as(service)
                    .isEqualTo("platform-herald");
        }
    }

    @Test
    void aChangedSecretRollsOnlyTheServicesThatReadIt() {
        RenderedChart before = RenderedChart.render(null, EVERY_SECRET);
        Map<String, Set<String>> readers = readersBySecret(before);
        assertThat(readers)
                .containsKeys(
                        "herald-admin",
                        "herald-cipher",
                        "herald-cursor",
                        "herald-internal-jwt",
                        "herald-postgresql",
                        "herald-db-posts-service",
                        "herald-connect",
                        "herald-providers",
                        "herald-kafka",
                        "herald-oidc");
        Map<String, String> checksums = secretChecksums(before);

        for (String secret : readers.keySet()) {
            // A rotation: the Secret as helm upgrade finds it has new data.
            KubernetesApiStub.secrets.put(secret, Map.of("value", "rotated " + secret));
            Map<String, String> after = secretChecksums(RenderedChart.render(null, EVERY_SECRET));

            Set<String> rolled = new TreeSet<>();
            SERVICES.forEach(service -> {
                if (!after.get(service).equals(checksums.get(service))) {
                    rolled.add(service);
                }
            });
            assertThat(rolled).as("rotating %s", secret).isEqualTo(readers.get(secret));
            checksums.putAll(after);
        }
    }

    @Test
    void withoutRollOnSecretChangeOnlyTheConfigurationRollsThePods() {
        RenderedChart chart = RenderedChart.render(null, template -> template.set("rollOnSecretChange", "false"));

        for (String service : SERVICES) {
            assertThat(annotations(chart.deployment(service)))
                    .containsKey("checksum/config")
                    .doesNotContainKey("checksum/secret");
        }
    }

    /** Secret name -> the services whose pods read it (env references and envFrom). */
    private static Map<String, Set<String>> readersBySecret(RenderedChart chart) {
        Map<String, Set<String>> readers = new TreeMap<>();
        for (String service : SERVICES) {
            var container = chart.deployment(service)
                    .getSpec()
                    .getTemplate()
                    .getSpec()
                    .getContainers()
                    .get(0);
            for (EnvVar env : container.getEnv()) {
                if (env.getValueFrom() != null && env.getValueFrom().getSecretKeyRef() != null) {
                    readers.computeIfAbsent(env.getValueFrom().getSecretKeyRef().getName(), k -> new TreeSet<>())
                            .add(service);
                }
            }
            for (EnvFromSource source : container.getEnvFrom()) {
                if (source.getSecretRef() != null) {
                    readers.computeIfAbsent(source.getSecretRef().getName(), k -> new TreeSet<>())
                            .add(service);
                }
            }
        }
        return readers;
    }

    private static Map<String, String> secretChecksums(RenderedChart chart) {
        Map<String, String> checksums = new HashMap<>();
        for (String service : SERVICES) {
            checksums.put(service, annotations(chart.deployment(service)).get("checksum/secret"));
        }
        assertThat(checksums.values()).doesNotContainNull();
        return checksums;
    }

    private static Map<String, String> annotations(Deployment deployment) {
        return deployment.getSpec().getTemplate().getMetadata().getAnnotations();
    }
}
