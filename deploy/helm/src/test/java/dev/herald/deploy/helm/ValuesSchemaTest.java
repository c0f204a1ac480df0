package dev.herald.deploy.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * values.schema.json: Helm checks the merged values against it in lint, template, install and upgrade, so a value the
 * chart does not read (a misspelled key, at any depth) or one of the wrong type fails before anything is applied.
 * That the shipped values files pass is HeraldChartTest's lint and render tests.
 */
class ValuesSchemaTest {

    @Test
    void strictLintFailsOnAMisspelledValueNamingIt(@TempDir Path work) throws IOException {
        Path values = work.resolve("typo.yaml");
        Files.writeString(values, """
                services:
                  api-gateway:
                    replicaCont: 3
                """);

        LintResult lint = new Helm(RenderedChart.chartWithValues(values.toString(), work.resolve("chart")))
                .lint()
                .strict()
                .call();

        assertThat(lint.isFailed()).isTrue();
        assertThat(String.join("\n", lint.getMessages()))
                .contains("/services/api-gateway")
                .contains("'replicaCont' not allowed");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "replicaCount                                   | 3           | at '': additional properties 'replicaCount' not allowed",
                "services.posts-service.resorces.limits.cpu     | 2           | at '/services/posts-service': additional properties 'resorces' not allowed",
                "services.search-service.replicas               | 2           | at '/services': additional properties 'search-service' not allowed",
                "ingress.exposeAdmn                             | true        | at '/ingress': additional properties 'exposeAdmn' not allowed",
                "monitoring.prometheusRule.outboxOldestAge      | 30          | at '/monitoring/prometheusRule': additional properties 'outboxOldestAge' not allowed",
                "secrets.adminToken.existingSecrets             | herald-adm  | at '/secrets/adminToken': additional properties 'existingSecrets' not allowed",
                "topics.partitions                              | many        | at '/topics/partitions': got string, want integer",
                "services.api-gateway.replicas                  | two         | at '/services/api-gateway/replicas': got string, want integer",
                "image.pullPolicy                               | Sometimes   | at '/image/pullPolicy'",
                "podSecurityContext.runAsNonRoot                | false       | at '/podSecurityContext/runAsNonRoot'",
                "shutdownDelay                                  | five        | at '/shutdownDelay'",
                "services.delivery-worker.env.herald_lowercase  | x           | invalid propertyName 'herald_lowercase'",
            })
    void aValueTheChartDoesNotReadOrOfTheWrongTypeFailsTheRender(String key, String value, String message) {
        assertThatThrownBy(() -> RenderedChart.render(null, template -> template.set(key, value)))
                .hasMessageContaining("values don't meet the specifications of the schema")
                .hasMessageContaining(message);
    }

    @Test
    void everyObjectOfTheSchemaRefusesKeysItDoesNotName() throws IOException {
        JsonNode schema = new ObjectMapper()
                .readTree(RenderedChart.chart().resolve("values.schema.json").toFile());
        List<String> open = new ArrayList<>();

        collectOpenObjects(schema, "", open);

        // An object with named properties and no additionalProperties would let a misspelled sibling through.
        assertThat(open).isEmpty();
        assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
    }

    private static void collectOpenObjects(JsonNode node, String path, List<String> open) {
        if (node.isObject()) {
            if (node.has("properties")
                    && !(node.path("additionalProperties").isBoolean()
                            && !node.path("additionalProperties").asBoolean())) {
                open.add(path.isEmpty() ? "/" : path);
            }
            node.properties().forEach(entry -> collectOpenObjects(entry.getValue(), path + "/" + entry.getKey(), open));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectOpenObjects(node.get(i), path + "[" + i + "]", open);
            }
        }
    }
}
