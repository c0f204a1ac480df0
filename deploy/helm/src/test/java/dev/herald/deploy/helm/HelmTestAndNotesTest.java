package dev.herald.deploy.helm;

import static dev.herald.deploy.helm.RenderedChart.HOOK_ANNOTATION;
import static dev.herald.deploy.helm.RenderedChart.RELEASE;
import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.TemplateCommand;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** helm test's Pod (templates/tests/gateway-test.yaml) and what helm install prints (NOTES.txt). */
class HelmTestAndNotesTest {
    private static final String ADMIN_TOKEN = "the-admin-token";

    @TempDir
    Path work;

    private int copies;

    @Test
    void theTestPodIsAHelmTestHookRunLikeTheServicesAgainstTheGatewaysService() throws IOException {
        RenderedChart chart = withHooks("values-production.yaml", template -> {});
        Pod pod = chart.get(Pod.class, RELEASE + "-helm-test");
        Container container = pod.getSpec().getContainers().get(0);

        assertThat(pod.getMetadata().getAnnotations()).containsEntry(HOOK_ANNOTATION, "test");
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getSpec().getServiceAccountName()).isEqualTo(RELEASE);
        assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
        assertThat(pod.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSpec().getSecurityContext().getRunAsUser()).isEqualTo(185L);
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(container.getResources().getLimits()).containsKeys("cpu", "memory");
        // It asks the gateway's Service, with the admin token from the Secret the gateway reads it from.
        Service gateway = chart.get(Service.class, RELEASE + "-api-gateway");
        assertThat(env(container, "GATEWAY").getValue())
                .isEqualTo("http://" + gateway.getMetadata().getName() + ":"
                        + gateway.getSpec().getPorts().get(0).getPort());
        assertThat(gateway.getSpec().getPorts().get(1).getName()).isEqualTo("management");
        assertThat(env(container, "MANAGEMENT").getValue())
                .isEqualTo("http://" + gateway.getMetadata().getName() + ":"
                        + gateway.getSpec().getPorts().get(1).getPort());
        assertThat(env(container, "HERALD_ADMIN_TOKEN").getValueFrom().getSecretKeyRef())
                .satisfies(ref -> assertThat(ref.getName()).isEqualTo("herald-admin"))
                .satisfies(ref -> assertThat(ref.getKey()).isEqualTo("token"));
        // Production narrows who reaches the gateway to the ingress controller; the test Pod is let in by its labels.
        NetworkPolicy policy = chart.get(NetworkPolicy.class, RELEASE + "-api-gateway");
        assertThat(policy.getSpec().getIngress().stream()
                        .filter(rule -> rule.getFrom() != null)
                        .flatMap(rule -> rule.getFrom().stream())
                        .filter(peer -> peer.getPodSelector() != null)
                        .map(peer -> peer.getPodSelector().getMatchLabels()))
                .anySatisfy(labels -> assertThat(pod.getMetadata().getLabels()).containsAllEntriesOf(labels));
    }

    @Test
    void testsCanBeSwitchedOffAndCanAlsoCheckAnApiKey() throws IOException {
        RenderedChart off = withHooks(null, template -> template.set("tests.enabled", "false"));
        assertThat(off.find(Pod.class, RELEASE + "-helm-test")).isEmpty();

        RenderedChart withKey = withHooks(null, template -> template.set("tests.apiKeySecret.name", "herald-test-key"));
        Container container = withKey.get(Pod.class, RELEASE + "-helm-test")
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(env(container, "HERALD_API_KEY").getValueFrom().getSecretKeyRef())
                .satisfies(ref -> assertThat(ref.getName()).isEqualTo("herald-test-key"))
                .satisfies(ref -> assertThat(ref.getKey()).isEqualTo("api-key"));
    }

    @Test
    void theTestScriptPassesAgainstAWorkingGatewayAndFailsWhenTheAdminApiAcceptsAnyToken() throws Exception {
        String script = script();

        assertThat(run(script, gateway(false, false), ""))
                .startsWith("0\n")
                .contains("ok   the gateway is ready")
                .contains("ok   the gateway's public port answers nothing under /q")
                .contains("ok   the admin API accepts the admin token");
        assertThat(run(script, gateway(false, false), "sk_test_key"))
                .startsWith("0\n")
                .contains("ok   GET /api/v1/profiles");
        // A gateway that lets any token into the admin API fails the test.
        assertThat(run(script, gateway(true, false), ""))
                .startsWith("1\n")
                .contains("FAIL the admin API refuses a wrong token: HTTP 404, expected 401");
        // So does one whose public port serves its health (an image built without the management interface).
        assertThat(run(script, gateway(false, true), ""))
                .startsWith("1\n")
                .contains("FAIL the gateway's public port answers nothing under /q: HTTP 200, expected 404");
    }

    @Test
    void theNotesSayWhereTheGatewayAndTheAdminTokenAre() {
        String notes = RenderedChart.notes(install -> install.set("publicUrl", "https://social.example.org"));

        assertThat(notes)
                .contains("https://social.example.org/api/v1")
                .contains("kubectl -n herald get secret herald-admin -o jsonpath='{.data.token}' | base64 -d")
                .contains("port-forward service/herald-api-gateway 8080:8080")
                .contains("helm test herald -n herald")
                .contains("docs/operations.md");

        String noIngress = RenderedChart.notes(install -> install.set("ingress.enabled", "false")
                .set("secrets.adminToken.existingSecret", "ops-admin")
                .set("secrets.adminToken.key", "admin-token"));
        assertThat(noIngress)
                .doesNotContain("/api/v1/profiles")
                .contains("get secret ops-admin -o jsonpath='{.data.admin-token}'")
                .doesNotContain("WARNING");

        // Scraping switched on with the NetworkPolicies still shutting the scraper out.
        assertThat(RenderedChart.notes(install -> install.set("monitoring.serviceMonitor.enabled", "true")))
                .contains("WARNING: monitoring.serviceMonitor is on, but networkPolicy.extraFrom admits no scraper");
        assertThat(RenderedChart.notes(install -> install.set("monitoring.serviceMonitor.enabled", "true")
                        .set("networkPolicy.extraFrom[0].namespaceSelector.matchLabels.team", "monitoring")))
                .doesNotContain("WARNING");
    }

    private RenderedChart withHooks(String valuesFile, Consumer<TemplateCommand> settings) throws IOException {
        return RenderedChart.renderWithHooks(valuesFile, settings, work.resolve("chart-" + copies++));
    }

    private String script() throws IOException {
        Container container = withHooks(null, template -> {})
                .get(Pod.class, RELEASE + "-helm-test")
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(container.getCommand()).hasSize(3).startsWith("/bin/sh", "-ec");
        return container.getCommand().get(2);
    }

    /** Runs the Pod's script here, with curl; its exit code, a newline and its output. */
    private static String run(String script, HttpServer[] gateway, String apiKey) throws Exception {
        try {
            ProcessBuilder process = new ProcessBuilder("/bin/sh", "-ec", script).redirectErrorStream(true);
            process.environment()
                    .putAll(Map.of(
                            "GATEWAY",
                            "http://127.0.0.1:" + gateway[0].getAddress().getPort(),
                            "MANAGEMENT",
                            "http://127.0.0.1:" + gateway[1].getAddress().getPort(),
                            "HERALD_ADMIN_TOKEN",
                            ADMIN_TOKEN,
                            "HERALD_API_KEY",
                            apiKey));
            Process started = process.start();
            assertThat(started.waitFor(60, TimeUnit.SECONDS)).isTrue();
            return started.exitValue() + "\n"
                    + new String(started.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            gateway[0].stop(0);
            gateway[1].stop(0);
        }
    }

    /**
     * A gateway answering as Herald's does, its public port and its management port; or (anyAdminToken) one whose
     * admin API takes any token, or (healthInPublic) one whose public port answers its readiness too.
     */
    private static HttpServer[] gateway(boolean anyAdminToken, boolean healthInPublic) throws IOException {
        HttpServer management = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        management.createContext(
                "/",
                exchange -> answer(exchange, exchange.getRequestURI().getPath().equals("/q/health/ready") ? 200 : 404));
        management.start();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            String authorization = Objects.toString(exchange.getRequestHeaders().getFirst("Authorization"), "");
            int status;
            if (path.equals("/q/health/ready")) {
                status = healthInPublic ? 200 : 404;
            } else if (path.equals("/api/v1/profiles")) {
                status = authorization.equals("Bearer sk_test_key") ? 200 : 401;
            } else if (path.startsWith("/admin/v1/")) {
                status = anyAdminToken || authorization.equals("Bearer " + ADMIN_TOKEN) ? 404 : 401;
            } else {
                status = 404;
            }
            answer(exchange, status);
        });
        server.start();
        return new HttpServer[] {server, management};
    }

    private static void answer(HttpExchange exchange, int status) throws IOException {
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    private static EnvVar env(Container container, String name) {
        return container.getEnv().stream()
                .filter(env -> env.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + name));
    }
}
