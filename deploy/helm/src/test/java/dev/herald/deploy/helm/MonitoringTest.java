package dev.herald.deploy.helm;

import static dev.herald.deploy.helm.RenderedChart.RELEASE;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.openshift.api.model.monitoring.v1.Endpoint;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.Rule;
import io.fabric8.openshift.api.model.monitoring.v1.RuleGroup;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Prometheus Operator's objects: off by default, and alerts on series the services really export. */
class MonitoringTest {
    private static final Path ROOT = Path.of(System.getProperty("herald.root", "../.."));
    private static final Pattern SERIES = Pattern.compile("\\b((?:herald|kafka|http_server)_[a-z_]+)\\{");

    private static RenderedChart monitored() {
        return RenderedChart.render(
                null,
                template -> template.set("monitoring.serviceMonitor.enabled", "true")
                        .set("monitoring.prometheusRule.enabled", "true")
                        .set("monitoring.serviceMonitor.labels.release", "kube-prometheus-stack"));
    }

    @Test
    void nothingOfTheOperatorIsRenderedUnlessAskedFor() {
        RenderedChart chart = HeraldChartTest.rendered("values.yaml");

        assertThat(chart.all(ServiceMonitor.class)).isEmpty();
        assertThat(chart.all(PrometheusRule.class)).isEmpty();
    }

    @Test
    void theServiceMonitorScrapesEveryHeraldServiceOnItsMetricsPath() {
        RenderedChart chart = monitored();
        ServiceMonitor monitor = chart.get(ServiceMonitor.class, RELEASE + "-metrics");

        assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "kube-prometheus-stack");
        assertThat(monitor.getSpec().getNamespaceSelector().getMatchNames()).containsExactly(RenderedChart.NAMESPACE);
        List<Service> selected = chart.all(Service.class).stream()
                .filter(service -> service.getMetadata()
                        .getLabels()
                        .entrySet()
                        .containsAll(
                                monitor.getSpec().getSelector().getMatchLabels().entrySet()))
                .toList();
        assertThat(selected).hasSize(HeraldChartTest.SERVICES.size());
        Endpoint endpoint = monitor.getSpec().getEndpoints().get(0);
        assertThat(endpoint.getPath()).isEqualTo("/q/metrics");
        // The Service port that leads to /q: the gateway's management interface (its 8080 answers 404 there).
        assertThat(endpoint.getPort()).isEqualTo("management");
        assertThat(selected)
                .allSatisfy(service -> assertThat(service.getSpec().getPorts())
                        .anySatisfy(port -> assertThat(port.getName()).isEqualTo(endpoint.getPort())));
    }

    @Test
    void theAlertsCoverWhatOperatorsMustKnowEachWithARunbookSection() throws IOException {
        List<Rule> rules = alerts();
        Set<String> anchors = headingAnchors(Files.readString(ROOT.resolve("docs/operations.md")));

        assertThat(rules)
                .extracting(Rule::getAlert)
                .contains(
                        "HeraldOutboxBacklog",
                        "HeraldConsumerLag",
                        "HeraldTargetsOverdue",
                        "HeraldWebhookFailureRate",
                        "HeraldHttp5xx");
        for (Rule rule : rules) {
            assertThat(rule.getAnnotations()).as(rule.getAlert()).containsKeys("summary", "description", "runbook_url");
            assertThat(rule.getLabels()).as(rule.getAlert()).containsKey("severity");
            String runbook = rule.getAnnotations().get("runbook_url");
            assertThat(runbook).as(rule.getAlert()).startsWith("docs/operations.md#");
            assertThat(anchors).as(rule.getAlert()).contains(runbook.substring(runbook.indexOf('#') + 1));
            // Only this release's series.
            assertThat(rule.getExpr().getStrVal())
                    .as(rule.getAlert())
                    .contains("namespace=\"herald\",job=~\"herald-.+\"");
        }
    }

    @Test
    void everySeriesAnAlertReadsIsOneTheServicesExport() throws IOException {
        String sources = mainSources();
        String operations = Files.readString(ROOT.resolve("docs/operations.md"));
        Set<String> series = new TreeSet<>();
        for (Rule rule : alerts()) {
            Matcher matcher = SERIES.matcher(rule.getExpr().getStrVal());
            while (matcher.find()) {
                series.add(matcher.group(1));
            }
        }

        assertThat(series).hasSizeGreaterThanOrEqualTo(6);
        for (String name : series) {
            if (name.startsWith("herald_")) {
                // Micrometer's name: dots for underscores, without the unit and the counter's suffix Prometheus adds.
                String meter = name.replaceAll("_(total|seconds)$", "").replace('_', '.');
                assertThat(sources.contains("\"" + meter + "\""))
                        .as("%s: no meter \"%s\" in the services' code", name, meter)
                        .isTrue();
            } else {
                // The Kafka client's and the HTTP server's binders: the documented series.
                assertThat(operations).as(name).contains("`" + name.replaceAll("_count$", "") + "`");
            }
        }
    }

    /**
     * promtool (Debian's prometheus package; .ci/run installs it) runs src/test/resources/alerts-test.yaml against the
     * rendered rules: each alert fires on made-up series showing its fault once the fault has lasted its "for", with
     * the summary its template makes, and not on the healthy series beside it.
     */
    @Test
    void eachAlertFiresOnItsFaultAndNotOnHealthySeries(@TempDir Path work) throws Exception {
        assertThat(Path.of("/usr/bin/promtool"))
                .as("promtool, from Debian's prometheus package (apt-get install prometheus)")
                .isExecutable();
        List<RuleGroup> groups = monitored()
                .get(PrometheusRule.class, RELEASE + "-alerts")
                .getSpec()
                .getGroups();
        // The descriptions are static text (checked above); the test file spells out the rest of each alert.
        groups.forEach(
                group -> group.getRules().forEach(rule -> rule.getAnnotations().remove("description")));
        Files.writeString(work.resolve("rules.yaml"), new KubernetesSerialization().asYaml(Map.of("groups", groups)));
        try (InputStream tests = MonitoringTest.class.getResourceAsStream("/alerts-test.yaml")) {
            Files.copy(Objects.requireNonNull(tests), work.resolve("alerts-test.yaml"));
        }

        Process promtool = new ProcessBuilder("/usr/bin/promtool", "test", "rules", "alerts-test.yaml")
                .directory(work.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(promtool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(promtool.exitValue()).as(output).isZero();
        assertThat(output).contains("SUCCESS");
    }

    private static List<Rule> alerts() {
        return monitored().get(PrometheusRule.class, RELEASE + "-alerts").getSpec().getGroups().stream()
                .flatMap(group -> group.getRules().stream())
                .toList();
    }

    /** The anchors GitHub gives the page's headings: lower case, punctuation dropped, spaces as hyphens. */
    private static Set<String> headingAnchors(String markdown) {
        return markdown.lines()
                .filter(line -> line.startsWith("#"))
                .map(line -> line.replaceFirst("^#+\\s*", "")
                        .toLowerCase(Locale.ROOT)
                        .replaceAll("[^a-z0-9 _-]", "")
                        .replace(' ', '-'))
                .collect(Collectors.toSet());
    }

    /** Every module's main Java sources. */
    private static String mainSources() throws IOException {
        StringBuilder sources = new StringBuilder();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path module : modules.toList()) {
                Path main = module.resolve("src/main/java");
                if (!Files.isDirectory(main)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(main)) {
                    files.filter(file -> file.toString().endsWith(".java"))
                            .forEach(file -> sources.append(read(file)).append('\n'));
                }
            }
        }
        return sources.toString();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
