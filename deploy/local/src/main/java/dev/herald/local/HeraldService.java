package dev.herald.local;

import java.util.Arrays;
import java.util.List;

/**
 * The Quarkus services of the suite: the Maven module that builds each one, the PostgreSQL database it owns (none for
 * mcp-server), its default port, and the variable through which the gateway (and any other service) finds it.
 */
public enum HeraldService {
    API_GATEWAY("api-gateway", "herald_gateway", 8080, null),
    PROFILES("profiles-service", "herald_profiles", 8181, "HERALD_SERVICES_PROFILES_URL"),
    ACCOUNTS("accounts-service", "herald_accounts", 8182, "HERALD_SERVICES_ACCOUNTS_URL"),
    POSTS("posts-service", "herald_posts", 8183, "HERALD_SERVICES_POSTS_URL"),
    DELIVERY_WORKER("delivery-worker", "herald_delivery", 8184, null),
    WEBHOOKS("webhooks-service", "herald_webhooks", 8185, "HERALD_SERVICES_WEBHOOKS_URL"),
    USAGE("usage-service", "herald_usage", 8186, "HERALD_SERVICES_USAGE_URL"),
    /** The MCP endpoint behind the gateway's {@code /mcp}: no database, no Kafka; it calls the public API. */
    MCP_SERVER("mcp-server", null, 8187, "HERALD_SERVICES_MCP_URL");

    private final String module;
    private final String database;
    private final int defaultPort;
    private final String urlVariable;

    HeraldService(String module, String database, int defaultPort, String urlVariable) {
        this.module = module;
        this.database = database;
        this.defaultPort = defaultPort;
        this.urlVariable = urlVariable;
    }

    /** The Maven module directory, also the name used for logs, pid files and {@code LocalSuite.stop(module)}. */
    public String module() {
        return module;
    }

    /** The service's database, or null for one that has none. */
    public String database() {
        return database;
    }

    public int defaultPort() {
        return defaultPort;
    }

    /** {@code HERALD_SERVICES_<NAME>_URL}, or null for services nobody calls over HTTP. */
    public String urlVariable() {
        return urlVariable;
    }

    public static HeraldService ofModule(String module) {
        return Arrays.stream(values())
                .filter(service -> service.module.equals(module))
                .findFirst()
                .orElseThrow(() ->
                        new IllegalArgumentException("unknown service module '" + module + "'; known: " + modules()));
    }

    public static List<String> modules() {
        return Arrays.stream(values()).map(HeraldService::module).toList();
    }
}
