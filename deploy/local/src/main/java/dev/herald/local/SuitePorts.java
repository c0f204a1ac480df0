package dev.herald.local;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The ports a {@link LocalSuiteConfig} listens on, named by what listens there, and their validation. */
final class SuitePorts {
    private SuitePorts() {}

    static Map<String, Integer> wanted(
            Map<HeraldService, Integer> ports,
            int gatewayManagement,
            Integer postgres,
            Integer kafka,
            Integer kafkaController,
            Integer providerFakes) {
        Map<String, Integer> wanted = new LinkedHashMap<>();
        for (HeraldService service : HeraldService.values()) {
            wanted.put(service.module(), ports.get(service));
        }
        wanted.put(LocalSuiteConfig.GATEWAY_MANAGEMENT, gatewayManagement);
        if (postgres != null) {
            wanted.put("postgres", postgres);
        }
        if (kafka != null) {
            wanted.put("kafka", kafka);
            wanted.put("kafka-controller", kafkaController);
        }
        if (providerFakes != null) {
            wanted.put(ProviderFakes.MODULE, providerFakes);
        }
        return wanted;
    }

    static void requireDistinct(Map<String, Integer> wanted) {
        Set<Integer> seen = new HashSet<>();
        wanted.forEach((component, port) -> {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port of " + component + " out of range: " + port);
            }
            if (!seen.add(port)) {
                throw new IllegalArgumentException(
                        "port " + port + " is configured twice (again for " + component + ")");
            }
        });
    }
}
