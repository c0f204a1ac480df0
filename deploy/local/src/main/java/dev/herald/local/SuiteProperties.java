package dev.herald.local;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * {@code suite.properties}: what {@code status} and {@code down} need to know about a running suite (its
 * supervisor, gateway URL, which servers are embedded, its ports); no secrets.
 */
final class SuiteProperties {
    private SuiteProperties() {}

    static void write(StateDirectory state, LocalSuiteConfig config, String gatewayUrl) throws IOException {
        Properties properties = new Properties();
        properties.setProperty(
                "supervisor.pid", Long.toString(ProcessHandle.current().pid()));
        properties.setProperty("gateway.url", gatewayUrl);
        properties.setProperty("postgres", config.embeddedPostgres() ? "embedded" : "existing");
        properties.setProperty("kafka", config.embeddedKafka() ? "embedded" : "existing");
        if (config.providerFakes()) {
            properties.setProperty("provider-fakes.url", config.providerFakesUrl());
        }
        config.listeningPorts()
                .forEach((component, port) -> properties.setProperty("port." + component, port.toString()));
        StringWriter text = new StringWriter();
        properties.store(text, "Herald local suite started " + Instant.now());
        StateDirectory.writeAtomically(state.suiteProperties(), text.toString(), false);
    }

    /** The running suite's properties, empty when none runs. */
    static Properties read(StateDirectory state) throws IOException {
        Properties properties = new Properties();
        if (Files.exists(state.suiteProperties())) {
            try (Reader reader = Files.newBufferedReader(state.suiteProperties(), StandardCharsets.UTF_8)) {
                properties.load(reader);
            }
        }
        return properties;
    }

    /** The ports of the running suite as it recorded them, else the ones the current environment selects. */
    static Map<String, Integer> portsOf(StateDirectory state, LocalSuiteConfig config) throws IOException {
        Properties suite = read(state);
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (String key : suite.stringPropertyNames()) {
            if (key.startsWith("port.")) {
                ports.put(key.substring("port.".length()), Integer.parseInt(suite.getProperty(key)));
            }
        }
        return ports.isEmpty() ? config.listeningPorts() : ports;
    }
}
