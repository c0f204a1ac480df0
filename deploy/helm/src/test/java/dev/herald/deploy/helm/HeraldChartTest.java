package dev.herald.deploy.helm;

import static dev.herald.deploy.helm.RenderedChart.RELEASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import dev.herald.common.events.Topics;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPath;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HeraldChartTest {
    static final List<String> SERVICES = List.of(
            "api-gateway",
            "profiles-service",
            "accounts-service",
            "posts-service",
            "delivery-worker",
            "webhooks-service",
            "usage-service",
            "mcp-server");
    /** The services with a database, Kafka and the internal token's public key: all but mcp-server. */
    static final List<String> STATEFUL_SERVICES = SERVICES.subList(0, SERVICES.size() - 1);

    /** Renders by values file (values.yaml: the defaults alone; others on top of them); a render takes a while. */
    private static final Map<String, RenderedChart> RENDERS = new ConcurrentHashMap<>();

    static RenderedChart rendered(String valuesFile) {
        return RENDERS.computeIfAbsent(
                valuesFile, file -> RenderedChart.render(file.equals("values.yaml") ? null : file));
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-production.yaml", "values-minimal.yaml"})
    void lintFindsNothingEvenInStrictMode(String valuesFile, @TempDir Path copy) throws IOException {
        // helm-java's lint takes no values file: lint a copy of the chart whose values.yaml is the merged result.
        LintResult lint = new Helm(RenderedChart.chartWithValues(valuesFile, copy))
                .lint()
                .strict()
                .call();

        assertThat(lint.isFailed()).as("%s", lint.getMessages()).isFalse();
        assertThat(lint.getMessages())
                .noneMatch(message -> message.contains("[ERROR]") || message.contains("[WARNING]"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-production.yaml", "values-minimal.yaml"})
    void everyValuesFileRendersOnlyObjectsKubernetesKnowsWithoutUnknownFields(String valuesFile) {
        // RenderedChart.parse fails on an unknown kind or field; what is left is that the set is complete.
        RenderedChart chart = rendered(valuesFile);

        for (String service : SERVICES) {
            String name = RELEASE + "-" + service;
            assertThat(chart.find(Deployment.class, name))
                    .as("Deployment %s", name)
                    .isPresent();
            assertThat(chart.find(Service.class, name)).as("Service %s", name).isPresent();
            assertThat(chart.find(ConfigMap.class, name))
                    .as("ConfigMap %s", name)
                    .isPresent();
            assertThat(chart.find(PodDisruptionBudget.class, name))
                    .as("PodDisruptionBudget %s", name)
                    .isPresent();
            assertThat(chart.find(NetworkPolicy.class, name))
                    .as("NetworkPolicy %s", name)
                    .isPresent();
        }
        assertThat(chart.all(Ingress.class)).hasSize(1);
    }

    @Test
    void aMisspelledFieldIsReportedRatherThanIgnored() {
        String misspelled = """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: x
                spec:
                  replica: 2
                  template:
                    spec:
                      containers:
                        - name: x
                          image: x
                          readinesProbe:
                            httpGet: {path: /q/health/ready, port: http}
                """;

        assertThatThrownBy(() -> RenderedChart.parse(misspelled))
                .hasMessageContaining("spec.replica")
                .hasMessageContaining("spec.template.spec.containers[0].readinesProbe");
        assertThatThrownBy(() -> RenderedChart.parse("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: x}\n"))
                .hasMessageContaining("not a Kubernetes kind");
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-production.yaml", "values-minimal.yaml"})
    void everyContainerIsProbedOnTheQuarkusHealthEndpoints(String valuesFile) {
        for (String service : SERVICES) {
            Container container = container(rendered(valuesFile).deployment(service));

            // The gateway's /q answers on its management interface only (docs/security.md); the others' on 8080.
            String probed = service.equals("api-gateway") ? "management" : "http";
            assertHttpProbe(container.getLivenessProbe(), "/q/health/live", probed, service);
            assertHttpProbe(container.getReadinessProbe(), "/q/health/ready", probed, service);
            assertHttpProbe(container.getStartupProbe(), "/q/health/started", probed, service);
            assertThat(container.getPorts())
                    .as(service)
                    .extracting(port -> port.getName() + "=" + port.getContainerPort())
                    .containsExactlyElementsOf(
                            service.equals("api-gateway")
                                    ? List.of("http=8080", "management=9000")
                                    : List.of("http=8080"));
        }
        assertThat(rendered(valuesFile).config("api-gateway"))
                .containsEntry("QUARKUS_MANAGEMENT_HOST", "0.0.0.0")
                .containsEntry("QUARKUS_MANAGEMENT_PORT", "9000");
    }

    @Test
    void theGatewaysManagementPortIsOpenToTheScraperAndTheTestPodOnly() {
        for (RenderedChart chart : List.of(
                rendered("values.yaml"),
                rendered("values-production.yaml"),
                RenderedChart.render(
                        null,
                        template -> template.set(
                                "networkPolicy.extraFrom[0].namespaceSelector.matchLabels.team", "monitoring")))) {
            NetworkPolicy policy = chart.get(NetworkPolicy.class, RELEASE + "-api-gateway");
            // A rule naming the management port always names its sources: never gatewayFrom's "anywhere".
            assertThat(policy.getSpec().getIngress())
                    .filteredOn(rule -> rule.getPorts().stream()
                            .anyMatch(port -> "management".equals(port.getPort().getStrVal())))
                    .isNotEmpty()
                    .allSatisfy(rule -> assertThat(rule.getFrom()).isNotEmpty())
                    .allSatisfy(rule -> assertThat(rule.getFrom())
                            .allSatisfy(peer -> assertThat(peer.getIpBlock()).isNull()));
            // The Service's "management" port leads to where /q answers: the gateway's management interface.
            for (String service : SERVICES) {
                assertThat(chart.get(Service.class, RELEASE + "-" + service)
                                .getSpec()
                                .getPorts())
                        .as(service)
                        .anySatisfy(port -> {
                            assertThat(port.getName()).isEqualTo("management");
                            assertThat(port.getTargetPort().getStrVal())
                                    .isEqualTo(service.equals("api-gateway") ? "management" : "http");
                        });
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-production.yaml", "values-minimal.yaml"})
    void everyContainerHasCpuAndMemoryRequestsAndLimits(String valuesFile) {
        RenderedChart chart = rendered(valuesFile);
        List<Container> containers = new ArrayList<>();
        SERVICES.forEach(service -> containers.add(container(chart.deployment(service))));
        containers.addAll(topicJob(valuesFile).getSpec().getTemplate().getSpec().getContainers());

        for (Container container : containers) {
            assertThat(container.getResources().getRequests())
                    .as(container.getName())
                    .containsKeys("cpu", "memory");
            assertThat(container.getResources().getLimits())
                    .as(container.getName())
                    .containsKeys("cpu", "memory");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-production.yaml", "values-minimal.yaml"})
    void podsRunAsNonRootOnAReadOnlyRootFilesystemWithoutCapabilities(String valuesFile) {
        RenderedChart chart = rendered(valuesFile);
        List<PodSpec> pods = new ArrayList<>();
        SERVICES.forEach(service ->
                pods.add(chart.deployment(service).getSpec().getTemplate().getSpec()));
        pods.add(topicJob(valuesFile).getSpec().getTemplate().getSpec());

        for (PodSpec pod : pods) {
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
            assertThat(pod.getSecurityContext().getRunAsUser()).isPositive();
            assertThat(pod.getAutomountServiceAccountToken()).isFalse();
            for (Container container : pod.getContainers()) {
                assertThat(container.getSecurityContext().getReadOnlyRootFilesystem())
                        .as(container.getName())
                        .isTrue();
                assertThat(container.getSecurityContext().getAllowPrivilegeEscalation())
                        .as(container.getName())
                        .isFalse();
                assertThat(container.getSecurityContext().getCapabilities().getDrop())
                        .as(container.getName())
                        .containsExactly("ALL");
                assertThat(container.getSecurityContext().getCapabilities().getAdd())
                        .as(container.getName())
                        .isNullOrEmpty();
                // The one writable place, on an emptyDir.
                assertThat(container.getVolumeMounts())
                        .as(container.getName())
                        .anySatisfy(mount -> assertThat(mount.getMountPath()).isEqualTo("/tmp"));
            }
            assertThat(pod.getVolumes()).anySatisfy(volume -> {
                assertThat(volume.getName()).isEqualTo("tmp");
                assertThat(volume.getEmptyDir()).isNotNull();
            });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-production.yaml", "values-minimal.yaml"})
    void onlyTheGatewayAcceptsTrafficFromOutside(String valuesFile) {
        RenderedChart chart = rendered(valuesFile);

        // Every Service is cluster-internal, and the Ingress leads to the gateway alone.
        assertThat(chart.all(Service.class))
                .allSatisfy(service -> assertThat(service.getSpec().getType()).isEqualTo("ClusterIP"));
        assertThat(chart.all(Ingress.class)
                        .get(0)
                        .getSpec()
                        .getRules()
                        .get(0)
                        .getHttp()
                        .getPaths())
                .allSatisfy(path ->
                        assertThat(path.getBackend().getService().getName()).isEqualTo(RELEASE + "-api-gateway"));
        // Every service's pods are selected by a policy; only the gateway's admits peers other than Herald's pods.
        for (String service : SERVICES) {
            NetworkPolicy policy = chart.get(NetworkPolicy.class, RELEASE + "-" + service);
            assertThat(policy.getSpec().getPodSelector().getMatchLabels())
                    .containsEntry("app.kubernetes.io/name", service)
                    .containsEntry("app.kubernetes.io/instance", RELEASE);
            assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
            if (!service.equals("api-gateway")) {
                assertThat(peers(policy)).as(service).allSatisfy(peer -> {
                    assertThat(peer.getIpBlock()).isNull();
                    assertThat(peer.getNamespaceSelector()).isNull();
                    assertThat(peer.getPodSelector().getMatchLabels())
                            .containsEntry("app.kubernetes.io/instance", RELEASE);
                });
            }
        }
    }

    @Test
    void servicesAcceptOnlyTheServicesThatCallThem() {
        RenderedChart chart = rendered("values.yaml");

        assertThat(callers(chart, "usage-service"))
                .containsExactlyInAnyOrder("api-gateway", "accounts-service", "posts-service", "delivery-worker");
        assertThat(callers(chart, "profiles-service"))
                .containsExactlyInAnyOrder("api-gateway", "accounts-service", "posts-service");
        assertThat(callers(chart, "accounts-service"))
                .containsExactlyInAnyOrder("api-gateway", "posts-service", "delivery-worker");
        assertThat(callers(chart, "posts-service")).containsExactlyInAnyOrder("api-gateway", "accounts-service");
        assertThat(callers(chart, "webhooks-service")).containsExactly("api-gateway");
        assertThat(callers(chart, "mcp-server")).containsExactly("api-gateway");
        // Nothing calls delivery-worker: its policy admits nobody.
        assertThat(chart.get(NetworkPolicy.class, RELEASE + "-delivery-worker")
                        .getSpec()
                        .getIngress())
                .isEmpty();
    }

    @Test
    void everyServiceUrlAServiceIsGivenNamesAServiceItsPolicyAdmitsItTo() {
        RenderedChart chart = rendered("values.yaml");
        Pattern url = Pattern.compile("HERALD_SERVICES_([A-Z]+)_URL");

        for (String caller : SERVICES) {
            for (Map.Entry<String, String> entry : chart.config(caller).entrySet()) {
                Matcher matcher = url.matcher(entry.getKey());
                if (!matcher.matches()) {
                    continue;
                }
                String callee = matcher.group(1).equals("MCP")
                        ? "mcp-server"
                        : matcher.group(1).toLowerCase() + "-service";
                Service service = chart.get(Service.class, RELEASE + "-" + callee);
                assertThat(entry.getValue())
                        .isEqualTo("http://" + service.getMetadata().getName() + ":"
                                + service.getSpec().getPorts().get(0).getPort());
                assertThat(callers(chart, callee))
                        .as("%s calls %s", caller, callee)
                        .contains(caller);
            }
        }
        // mcp-server calls the public API, at the gateway's Service, which admits it whatever gatewayFrom says.
        assertThat(chart.config("mcp-server"))
                .containsEntry("HERALD_MCP_GATEWAY_URL", "http://" + RELEASE + "-api-gateway:8080")
                .doesNotContainKeys("QUARKUS_DATASOURCE_JDBC_URL", "KAFKA_BOOTSTRAP_SERVERS");
        // ... and helm test's Pod (HelmTestAndNotesTest).
        assertThat(callers(rendered("values-production.yaml"), "api-gateway"))
                .containsExactlyInAnyOrder("mcp-server", "helm-test");
        assertThat(chart.config("delivery-worker"))
                .containsOnlyKeys(Stream.concat(
                                basicVariables().stream(),
                                Stream.of("HERALD_SERVICES_ACCOUNTS_URL", "HERALD_SERVICES_USAGE_URL"))
                        .toList());
    }

    @Test
    void restrictingTheGatewaySourcesNarrowsItsPolicy() {
        RenderedChart open = rendered("values.yaml");
        RenderedChart production = rendered("values-production.yaml");

        // An ingress rule without "from" admits any source; production names the ingress controller's namespace.
        assertThat(open.get(NetworkPolicy.class, RELEASE + "-api-gateway")
                        .getSpec()
                        .getIngress()
                        .get(0)
                        .getFrom())
                .isNullOrEmpty();
        assertThat(production
                        .get(NetworkPolicy.class, RELEASE + "-api-gateway")
                        .getSpec()
                        .getIngress()
                        .get(0)
                        .getFrom())
                .isNotEmpty()
                .allSatisfy(peer -> assertThat(peer.getNamespaceSelector()).isNotNull());
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-production.yaml"})
    void theGatewayAndDeliveryWorkerScaleOnCpuAndLeaveTheirReplicasToTheAutoscaler(String valuesFile) {
        RenderedChart chart = rendered(valuesFile);

        assertThat(chart.all(HorizontalPodAutoscaler.class))
                .extracting(hpa -> hpa.getMetadata().getName())
                .containsExactlyInAnyOrder(RELEASE + "-api-gateway", RELEASE + "-delivery-worker");
        for (HorizontalPodAutoscaler hpa : chart.all(HorizontalPodAutoscaler.class)) {
            assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
            assertThat(hpa.getSpec().getScaleTargetRef().getName())
                    .isEqualTo(hpa.getMetadata().getName());
            assertThat(hpa.getSpec().getMinReplicas()).isGreaterThanOrEqualTo(2);
            assertThat(hpa.getSpec().getMetrics()).anySatisfy(metric -> {
                assertThat(metric.getType()).isEqualTo("Resource");
                assertThat(metric.getResource().getName()).isEqualTo("cpu");
                assertThat(metric.getResource().getTarget().getAverageUtilization())
                        .isBetween(1, 100);
            });
            // A replicas field would fight the autoscaler on every upgrade.
            assertThat(chart.get(Deployment.class, hpa.getMetadata().getName())
                            .getSpec()
                            .getReplicas())
                    .isNull();
        }
    }

    @Test
    void deliveryWorkerCanAlsoScaleOnItsConsumerLag() {
        RenderedChart chart = RenderedChart.render(
                null, template -> template.set("services.delivery-worker.autoscaling.consumerLag.enabled", "true"));

        List<MetricSpec> metrics = chart.get(HorizontalPodAutoscaler.class, RELEASE + "-delivery-worker")
                .getSpec()
                .getMetrics();
        assertThat(metrics).anySatisfy(metric -> {
            assertThat(metric.getType()).isEqualTo("External");
            assertThat(metric.getExternal().getMetric().getName()).isEqualTo("kafka_consumergroup_lag");
            assertThat(metric.getExternal().getMetric().getSelector().getMatchLabels())
                    .containsEntry("consumergroup", "delivery-worker")
                    .containsEntry("topic", Topics.POST_ACCEPTED);
            assertThat(metric.getExternal().getTarget().getType()).isEqualTo("AverageValue");
        });
        assertThat(rendered("values.yaml")
                        .get(HorizontalPodAutoscaler.class, RELEASE + "-delivery-worker")
                        .getSpec()
                        .getMetrics())
                .noneSatisfy(metric -> assertThat(metric.getType()).isEqualTo("External"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-production.yaml", "values-minimal.yaml"})
    void everyServiceHasADisruptionBudgetThatStillLetsOneReplicaDrain(String valuesFile) {
        for (String service : SERVICES) {
            PodDisruptionBudget pdb = rendered(valuesFile).get(PodDisruptionBudget.class, RELEASE + "-" + service);

            assertThat(pdb.getSpec().getMinAvailable()).isNull();
            assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
            assertThat(pdb.getSpec().getSelector().getMatchLabels()).containsEntry("app.kubernetes.io/name", service);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-production.yaml", "values-minimal.yaml"})
    void noSecretIsRenderedAndEveryCredentialIsASecretReference(String valuesFile) {
        RenderedChart chart = rendered(valuesFile);
        Pattern secretLooking =
                Pattern.compile(".*(PASSWORD|PRIVATE_KEY|PUBLIC_KEY|SECRET|TOKEN|CIPHER|JAAS|CLIENT_ID).*");

        assertThat(chart.all(Secret.class)).isEmpty();
        for (String service : SERVICES) {
            assertThat(chart.config(service).keySet())
                    .as("%s's ConfigMap", service)
                    .noneMatch(key -> secretLooking.matcher(key).matches());
            for (EnvVar env : container(chart.deployment(service)).getEnv()) {
                assertThat(env.getValue())
                        .as("%s %s has an inline value", service, env.getName())
                        .isNull();
                assertThat(env.getValueFrom().getSecretKeyRef())
                        .as("%s %s", service, env.getName())
                        .isNotNull();
            }
        }
    }

    @Test
    void eachServiceGetsOnlyTheSecretsItUses() {
        RenderedChart chart = rendered("values.yaml");

        assertThat(servicesWith(chart, "HERALD_INTERNAL_JWT_VERIFY_KEYS"))
                .containsExactlyInAnyOrderElementsOf(STATEFUL_SERVICES);
        assertThat(servicesWith(chart, "HERALD_INTERNAL_JWT_SIGNING_KEY_ID"))
                .containsExactlyInAnyOrder("api-gateway", "accounts-service", "posts-service", "delivery-worker");
        assertThat(container(chart.deployment("mcp-server")).getEnv()).isEmpty();
        assertThat(servicesWith(chart, "HERALD_INTERNAL_JWT_PRIVATE_KEY"))
                .containsExactlyInAnyOrder("api-gateway", "accounts-service", "posts-service", "delivery-worker");
        assertThat(servicesWith(chart, "HERALD_SECRET_CIPHER_CURRENT_KEY"))
                .containsExactlyInAnyOrder("accounts-service", "webhooks-service");
        assertThat(servicesWith(chart, "HERALD_SECRET_CIPHER_RETIRED_KEYS"))
                .containsExactlyInAnyOrder("accounts-service", "webhooks-service");
        assertThat(servicesWith(chart, "HERALD_ADMIN_TOKEN")).containsExactly("api-gateway");
        assertThat(servicesWith(chart, "HERALD_CURSOR_SECRET"))
                .containsExactlyInAnyOrder(
                        "api-gateway", "profiles-service", "accounts-service", "posts-service", "webhooks-service");
        // The retired keys are absent between rotations: the reference must not keep the pods from starting.
        EnvVar retired = env(chart.deployment("accounts-service"), "HERALD_SECRET_CIPHER_RETIRED_KEYS");
        assertThat(retired.getValueFrom().getSecretKeyRef().getOptional()).isTrue();
        EnvVar current = env(chart.deployment("accounts-service"), "HERALD_SECRET_CIPHER_CURRENT_KEY");
        assertThat(current.getValueFrom().getSecretKeyRef().getOptional()).isNull();
    }

    @Test
    void eachServiceReachesItsOwnDatabaseOnTheConfiguredServer() {
        RenderedChart chart = RenderedChart.render(
                null,
                template -> template.set("postgresql.host", "pg.internal")
                        .set("postgresql.port", "6432")
                        .set("postgresql.parameters", "sslmode=require")
                        .set("services.posts-service.databaseSecret", "herald-posts-db"));

        assertThat(chart.config("posts-service"))
                .containsEntry(
                        "QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://pg.internal:6432/herald_posts?sslmode=require")
                .containsEntry(
                        "QUARKUS_DATASOURCE_JDBC_URL",
                        "jdbc:postgresql://pg.internal:6432/herald_posts?sslmode=require");
        assertThat(env(chart.deployment("posts-service"), "QUARKUS_DATASOURCE_PASSWORD")
                        .getValueFrom()
                        .getSecretKeyRef()
                        .getName())
                .isEqualTo("herald-posts-db");
        assertThat(env(chart.deployment("usage-service"), "QUARKUS_DATASOURCE_PASSWORD")
                        .getValueFrom()
                        .getSecretKeyRef()
                        .getName())
                .isEqualTo("herald-postgresql");
        Set<String> databases = new TreeSet<>();
        STATEFUL_SERVICES.forEach(service -> databases.add(
                chart.config(service).get("QUARKUS_DATASOURCE_JDBC_URL").replaceAll(".*/|\\?.*", "")));
        assertThat(databases).as("one database per service").hasSize(STATEFUL_SERVICES.size());
    }

    @Test
    void servicesListenOnThePodAddressAndPublicUrlsComeFromPublicUrl() {
        RenderedChart chart =
                RenderedChart.render(null, template -> template.set("publicUrl", "https://social.example.org/"));

        for (String service : SERVICES) {
            assertThat(chart.config(service))
                    .containsEntry("QUARKUS_HTTP_HOST", "0.0.0.0")
                    .containsEntry("QUARKUS_HTTP_PORT", "8080");
        }
        assertThat(chart.config("api-gateway"))
                .containsEntry("HERALD_OAUTH_RESOURCE", "https://social.example.org/api/v1")
                .containsEntry("HERALD_PUBLIC_URL", "https://social.example.org");
        assertThat(chart.config("accounts-service"))
                .containsEntry("HERALD_CONNECT_PUBLIC_URL", "https://social.example.org");
        assertThat(chart.all(Ingress.class).get(0).getSpec().getRules().get(0).getHost())
                .isEqualTo("social.example.org");
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-production.yaml", "values-minimal.yaml"})
    void theGracePeriodCoversTheShutdownDelayAndTheRequestDrain(String valuesFile) {
        RenderedChart chart = RenderedChart.render(valuesFile);
        for (String service : SERVICES) {
            long delaySeconds = Duration.parse("PT"
                            + chart.config(service)
                                    .get("QUARKUS_SHUTDOWN_DELAY")
                                    .toUpperCase())
                    .toSeconds();
            // 20 s is quarkus.shutdown.timeout, common's META-INF/microprofile-config.properties.
            assertThat(chart.deployment(service)
                            .getSpec()
                            .getTemplate()
                            .getSpec()
                            .getTerminationGracePeriodSeconds())
                    .as(service)
                    .isGreaterThanOrEqualTo(delaySeconds + 20);
        }
    }

    @Test
    void logsAreJsonAndTracesStayUnexportedUntilACollectorIsNamed() {
        RenderedChart defaults = RenderedChart.render(null);
        for (String service : SERVICES) {
            assertThat(defaults.config(service))
                    .containsEntry("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "true")
                    .containsEntry("QUARKUS_SHUTDOWN_DELAY", "5s")
                    .doesNotContainKey("QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT")
                    .doesNotContainKey("QUARKUS_OTEL_TRACES_SAMPLER_ARG");
        }

        RenderedChart traced = RenderedChart.render(
                null,
                template -> template.set(
                                "observability.tracing.otlpEndpoint", "http://otel-collector.observability:4317")
                        .set("observability.tracing.sampleRatio", "0.25")
                        .set("observability.jsonLogs", "false"));
        for (String service : SERVICES) {
            assertThat(traced.config(service))
                    .containsEntry("QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel-collector.observability:4317")
                    .containsEntry("QUARKUS_OTEL_TRACES_SAMPLER_ARG", "0.25")
                    .containsEntry("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "false");
        }
    }

    @Test
    void everyVariableTheChartSetsIsOneTheServicesDocumentReading() throws IOException {
        Path root = Path.of(System.getProperty("herald.root", "../.."));
        Set<String> documented = documentedVariables(
                Files.readString(root.resolve("README.md")) + Files.readString(root.resolve("docs/local-runtime.md")));
        RenderedChart chart = RenderedChart.render(
                "values-production.yaml",
                template -> template.set("secrets.connect.existingSecret", "herald-connect")
                        .set("dashboard.oidc.issuer", "https://login.example.com/realms/herald")
                        .set("dashboard.oidc.clientId", "herald-dashboard")
                        .set("dashboard.oidc.clientSecret.secretName", "herald-oidc"));

        Set<String> variables = new TreeSet<>();
        for (String service : SERVICES) {
            variables.addAll(chart.config(service).keySet());
            container(chart.deployment(service)).getEnv().forEach(env -> variables.add(env.getName()));
        }
        // Quarkus's own settings (QUARKUS_*) and Kafka client properties (KAFKA_*) are Quarkus's contract.
        assertThat(variables.stream().filter(name -> name.startsWith("HERALD_")))
                .isNotEmpty()
                .allSatisfy(name -> assertThat(documented).as(name).contains(name));
        assertThat(variables)
                .allMatch(
                        name -> name.startsWith("HERALD_") || name.startsWith("QUARKUS_") || name.startsWith("KAFKA_"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"values.yaml", "values-production.yaml", "values-minimal.yaml"})
    void theTopicJobCreatesEveryTopicHeraldUses(String valuesFile) {
        String script = topicScript(valuesFile);

        for (String topic : topicNames()) {
            assertThat(script).contains("--create --if-not-exists --topic " + topic + " ");
        }
        assertThat(Pattern.compile("--topic ").matcher(script).results().count())
                .isEqualTo(topicNames().size());
    }

    @Test
    void productionTopicsAreReplicatedThreeTimesAndKeepTwoInSync() {
        String production = topicScript("values-production.yaml");
        String minimal = topicScript("values-minimal.yaml");

        assertThat(production)
                .doesNotContain("--replication-factor 1 ", "--replication-factor 2 ")
                .contains("--replication-factor 3 ")
                .contains("min.insync.replicas=2");
        assertThat(count(production, "min.insync.replicas=2"))
                .isEqualTo(topicNames().size());
        assertThat(partitions(production, Topics.POST_ACCEPTED))
                .isGreaterThanOrEqualTo(rendered("values-production.yaml")
                        .get(HorizontalPodAutoscaler.class, RELEASE + "-delivery-worker")
                        .getSpec()
                        .getMaxReplicas());
        // A single-broker cluster: replication 1 and one in-sync replica, or nothing could be written.
        assertThat(minimal)
                .contains("--replication-factor 1 ")
                .contains("min.insync.replicas=1")
                .doesNotContain("min.insync.replicas=2");
    }

    @Test
    void theTopicJobIsAHookThatRunsBeforeInstallAndUpgrade() {
        // helm template (like helm-java's) prints the release's resources; a hook is kept apart from them and
        // run by helm install and upgrade before those resources are applied.
        assertThat(rendered("values.yaml").find(Job.class, RELEASE + "-create-topics"))
                .isEmpty();

        Job plain = topicJob("values.yaml");
        assertThat(plain.getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(plain.getSpec().getTtlSecondsAfterFinished()).isPositive();
        assertThat(plain.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
    }

    @Test
    void theIngressServesOnlyTheGatewaysPublicRoutes() {
        List<String> paths = ingressPaths(rendered("values.yaml"));
        List<String> withAdmin =
                ingressPaths(RenderedChart.render(null, template -> template.set("ingress.exposeAdmin", "true")));

        assertThat(paths).containsExactlyInAnyOrder("/api/v1", "/oauth", "/connect", "/dashboard", "/mcp");
        assertThat(withAdmin).contains("/admin/v1");
    }

    @Test
    void theDashboardSignsInWithOidcOnlyOnceAnIssuerIsSet() {
        RenderedChart chart = withOidc(template -> {});

        assertThat(chart.config("api-gateway"))
                .containsEntry("HERALD_OIDC_ISSUER", "https://login.example.com/realms/herald")
                .containsEntry("HERALD_OIDC_CLIENT_ID", "herald-dashboard")
                .containsEntry("HERALD_DASHBOARD_SESSION_TTL", "12h");
        // The client secret only ever as a reference to the operator's Secret.
        assertThat(chart.all(Secret.class)).isEmpty();
        assertThat(chart.config("api-gateway")).doesNotContainKey("HERALD_OIDC_CLIENT_SECRET");
        EnvVar secret = env(chart.deployment("api-gateway"), "HERALD_OIDC_CLIENT_SECRET");
        assertThat(secret.getValue()).isNull();
        assertThat(secret.getValueFrom().getSecretKeyRef().getName()).isEqualTo("herald-oidc");
        assertThat(secret.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("client-secret");
        assertThat(secret.getValueFrom().getSecretKeyRef().getOptional()).isNull();
        // The gateway alone serves the dashboard.
        for (String service : SERVICES.subList(1, SERVICES.size())) {
            assertThat(chart.config(service).keySet())
                    .as(service)
                    .noneMatch(key -> key.startsWith("HERALD_OIDC_") || key.startsWith("HERALD_DASHBOARD_"));
        }
        assertThat(servicesWith(chart, "HERALD_OIDC_CLIENT_SECRET")).containsExactly("api-gateway");

        RenderedChart defaults = rendered("values.yaml");
        assertThat(defaults.config("api-gateway"))
                .containsEntry("HERALD_DASHBOARD_SESSION_TTL", "8h")
                .doesNotContainKeys("HERALD_OIDC_ISSUER", "HERALD_OIDC_CLIENT_ID");
        assertThat(servicesWith(defaults, "HERALD_OIDC_CLIENT_SECRET")).isEmpty();
        // A public client (no secret) passes no secret reference.
        assertThat(servicesWith(
                        withOidc(template -> template.set("dashboard.oidc.clientSecret.secretName", "")),
                        "HERALD_OIDC_CLIENT_SECRET"))
                .isEmpty();
    }

    @Test
    void anOidcIssuerWithoutAClientOrOverPlainHttpFailsTheRender() {
        assertThatThrownBy(() -> withOidc(template -> template.set("dashboard.oidc.clientId", "")))
                .hasMessageContaining("dashboard.oidc.clientId is required when dashboard.oidc.issuer is set");
        assertThatThrownBy(() -> withOidc(
                        template -> template.set("dashboard.oidc.issuer", "http://keycloak.auth:8080/realms/herald")))
                .hasMessageContaining("dashboard.oidc.issuer must be an https:// URL");
        assertThatThrownBy(() -> withOidc(template -> template.set("dashboard.oidc.issuer", "login.example.com")))
                .hasMessageContaining("dashboard.oidc.issuer must be an https:// URL");
        assertThatThrownBy(() -> withOidc(template -> template.set("dashboard.sessionTtl", "eight hours")))
                .hasMessageContaining("dashboard.sessionTtl must be a duration");
        // An issuer on the pod's own loopback address (a sidecar) may be plain http.
        assertThat(withOidc(template -> template.set("dashboard.oidc.issuer", "http://127.0.0.1:8180/realms/herald"))
                        .config("api-gateway"))
                .containsEntry("HERALD_OIDC_ISSUER", "http://127.0.0.1:8180/realms/herald");
    }

    /** OIDC sign-in as a production install sets it, with further settings laid over. */
    private static RenderedChart withOidc(Consumer<TemplateCommand> more) {
        return RenderedChart.render(null, template -> {
            template.set("dashboard.oidc.issuer", "https://login.example.com/realms/herald")
                    .set("dashboard.oidc.clientId", "herald-dashboard")
                    .set("dashboard.oidc.clientSecret.secretName", "herald-oidc")
                    .set("dashboard.sessionTtl", "12h");
            more.accept(template);
        });
    }

    @Test
    void aMissingDatabaseHostOrBrokerFailsTheRenderNamingTheValue() {
        assertThatThrownBy(() -> RenderedChart.render(null, template -> template.set("postgresql.host", "")))
                .hasMessageContaining("postgresql.host is required");
        assertThatThrownBy(() -> RenderedChart.render(null, template -> template.set("kafka.bootstrapServers", "")))
                .hasMessageContaining("kafka.bootstrapServers is required");
    }

    @Test
    void imagesAreTheOnesTheImagesProfileBuilds() {
        RenderedChart chart =
                RenderedChart.render(null, template -> template.set("image.registry", "registry.example.com"));

        for (String service : SERVICES) {
            // <registry>/herald/<module>:<project version>, as deploy/images/service-image.sh pushes them
            assertThat(container(chart.deployment(service)).getImage())
                    .isEqualTo("registry.example.com/herald/" + service + ":0.1.0-SNAPSHOT");
        }
    }

    private static Container container(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static EnvVar env(Deployment deployment, String name) {
        return container(deployment).getEnv().stream()
                .filter(env -> env.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(deployment.getMetadata().getName() + " has no " + name));
    }

    private static List<String> servicesWith(RenderedChart chart, String variable) {
        return SERVICES.stream()
                .filter(service -> container(chart.deployment(service)).getEnv().stream()
                        .anyMatch(env -> env.getName().equals(variable)))
                .toList();
    }

    private static void assertHttpProbe(Probe probe, String path, String port, String service) {
        assertThat(probe).as("%s probe on %s", service, path).isNotNull();
        assertThat(probe.getHttpGet().getPath()).as(service).isEqualTo(path);
        assertThat(probe.getHttpGet().getPort().getStrVal()).as(service).isEqualTo(port);
    }

    private static List<NetworkPolicyPeer> peers(NetworkPolicy policy) {
        return policy.getSpec().getIngress().stream()
                .flatMap(rule -> rule.getFrom() == null ? Stream.empty() : rule.getFrom().stream())
                .toList();
    }

    /** The services whose pods a service's policy admits. */
    private static List<String> callers(RenderedChart chart, String service) {
        return peers(chart.get(NetworkPolicy.class, RELEASE + "-" + service)).stream()
                .filter(peer -> peer.getPodSelector() != null)
                .map(peer -> peer.getPodSelector().getMatchLabels().get("app.kubernetes.io/name"))
                .filter(Objects::nonNull)
                .toList();
    }

    private static List<String> basicVariables() {
        return List.of(
                "QUARKUS_HTTP_HOST",
                "QUARKUS_HTTP_PORT",
                "QUARKUS_DATASOURCE_REACTIVE_URL",
                "QUARKUS_DATASOURCE_JDBC_URL",
                "KAFKA_BOOTSTRAP_SERVERS",
                "QUARKUS_SHUTDOWN_DELAY",
                "QUARKUS_LOG_CONSOLE_JSON_ENABLED");
    }

    /** The topic Job as a plain Job: helm-java, like helm template, leaves hooks out of what it prints. */
    private static Job topicJob(String valuesFile) {
        return RENDERS.computeIfAbsent(
                        valuesFile + " topics.hook=false",
                        key -> RenderedChart.render(
                                valuesFile.equals("values.yaml") ? null : valuesFile,
                                template -> template.set("topics.hook", "false")))
                .get(Job.class, RELEASE + "-create-topics");
    }

    private static String topicScript(String valuesFile) {
        return String.join(
                "\n",
                topicJob(valuesFile)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getCommand());
    }

    /** HERALD_* names in the docs, with the README's {A,B} shorthand expanded. */
    private static Set<String> documentedVariables(String docs) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = Pattern.compile("HERALD_[A-Z0-9_]*(?:\\{([A-Z0-9_,]+)}([A-Z0-9_]*))?")
                .matcher(docs);
        while (matcher.find()) {
            String prefix = matcher.group().replaceAll("\\{.*", "");
            if (matcher.group(1) == null) {
                names.add(prefix);
            } else {
                for (String part : matcher.group(1).split(",")) {
                    names.add(prefix + part + matcher.group(2));
                }
            }
        }
        return names;
    }

    private static int partitions(String script, String topic) {
        Matcher matcher = Pattern.compile("--topic " + Pattern.quote(topic) + " \\\\\\s+--partitions (\\d+)")
                .matcher(script);
        assertThat(matcher.find()).as("partitions of %s", topic).isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    private static long count(String text, String part) {
        return Pattern.compile(Pattern.quote(part)).matcher(text).results().count();
    }

    private static List<String> ingressPaths(RenderedChart chart) {
        return chart.all(Ingress.class).get(0).getSpec().getRules().get(0).getHttp().getPaths().stream()
                .map(HTTPIngressPath::getPath)
                .toList();
    }

    /** common's Topics constants: the topics the services produce to and consume from. */
    static List<String> topicNames() {
        return Arrays.stream(Topics.class.getDeclaredFields())
                .filter(field -> Modifier.isStatic(field.getModifiers()) && field.getType() == String.class)
                .map(HeraldChartTest::constant)
                .collect(Collectors.toList());
    }

    private static String constant(Field field) {
        try {
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
