package dev.herald.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Everything {@link LocalSuite} needs to know. {@link #fromEnvironment} reads what {@code ./herald} users set;
 * tests build one with {@link #builder} (typically {@link Builder#freePorts()} and a temporary state dir).
 * The record and its {@link Builder} list the same settings twice, which makes this a little over 300 lines;
 * the environment mapping lives in {@link LocalSuiteEnvironment} and the port checks in {@link SuitePorts}.
 *
 * @param gatewayManagementPort where the gateway's management interface listens: its probes and metrics under
 *                            {@code /q}, which its public port never answers
 * @param existingDatabaseUrl {@code postgresql://user:password@host:port} of a server to use instead of the
 *                            embedded one, or null
 * @param existingKafka       bootstrap servers of a broker to use instead of the embedded one, or null
 * @param demoTestKey         fixed demo workspace test key, or null to use the generated one (same for the
 *                            live key and the admin token)
 * @param providerFakes       whether the suite runs the provider fakes and points live mode at them
 *                            ({@code ./herald up --fake-providers})
 * @param providerFakesPort   where the provider fakes listen when they run
 * @param durablePostgres     whether the embedded PostgreSQL runs with {@code fsync} on, as a production server does
 *                            (the default; {@code HERALD_POSTGRES_DURABLE=false} turns it off). Off, a commit survives
 *                            a crash of PostgreSQL but not of the machine
 * @param environmentByService extra variables for one service only, on top of {@code serviceEnvironment}
 */
public record LocalSuiteConfig(
        Path projectRoot,
        Path stateDir,
        Map<HeraldService, Integer> ports,
        int gatewayManagementPort,
        int postgresPort,
        int kafkaPort,
        int kafkaControllerPort,
        String existingDatabaseUrl,
        String existingKafka,
        String demoTestKey,
        String demoLiveKey,
        String adminToken,
        ServiceCommand serviceCommand,
        Duration readinessTimeout,
        Duration stopGracePeriod,
        Consumer<String> progress,
        Map<String, String> serviceEnvironment,
        boolean providerFakes,
        int providerFakesPort,
        Map<HeraldService, Map<String, String>> environmentByService,
        boolean durablePostgres) {

    /** Quarkus's default management port, as in the chart. */
    public static final int DEFAULT_GATEWAY_MANAGEMENT_PORT = 9000;
    /** How {@link #listeningPorts} and the suite's recorded ports name the gateway's management port. */
    public static final String GATEWAY_MANAGEMENT = "api-gateway-management";

    public static final int DEFAULT_POSTGRES_PORT = 54329;
    public static final int DEFAULT_KAFKA_PORT = 19092;
    public static final int DEFAULT_KAFKA_CONTROLLER_PORT = 19093;
    /** How long a start waits for every service: eight JVMs starting on two busy cores took up to 140 s each. */
    public static final Duration DEFAULT_READINESS_TIMEOUT = Duration.ofSeconds(240);

    public LocalSuiteConfig {
        Objects.requireNonNull(projectRoot, "projectRoot");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(serviceCommand, "serviceCommand");
        Objects.requireNonNull(readinessTimeout, "readinessTimeout");
        Objects.requireNonNull(stopGracePeriod, "stopGracePeriod");
        Objects.requireNonNull(progress, "progress");
        serviceEnvironment = serviceEnvironment == null ? Map.of() : Map.copyOf(serviceEnvironment);
        environmentByService = environmentByService == null ? Map.of() : Map.copyOf(environmentByService);
        projectRoot = projectRoot.toAbsolutePath().normalize();
        stateDir = stateDir.toAbsolutePath().normalize();
        EnumMap<HeraldService, Integer> complete = new EnumMap<>(HeraldService.class);
        for (HeraldService service : HeraldService.values()) {
            complete.put(service, ports.getOrDefault(service, service.defaultPort()));
        }
        ports = Map.copyOf(complete);
        existingDatabaseUrl = blankToNull(existingDatabaseUrl);
        existingKafka = blankToNull(existingKafka);
        demoTestKey = blankToNull(demoTestKey);
        demoLiveKey = blankToNull(demoLiveKey);
        adminToken = blankToNull(adminToken);
        requirePrefix("HERALD_DEMO_TEST_KEY", demoTestKey, "sk_test_");
        requirePrefix("HERALD_DEMO_LIVE_KEY", demoLiveKey, "sk_live_");
        SuitePorts.requireDistinct(SuitePorts.wanted(
                ports,
                gatewayManagementPort,
                existingDatabaseUrl == null ? postgresPort : null,
                existingKafka == null ? kafkaPort : null,
                existingKafka == null ? kafkaControllerPort : null,
                providerFakes ? providerFakesPort : null));
    }

    public static Builder builder(Path projectRoot) {
        return new Builder(projectRoot);
    }

    /**
     * The configuration {@code ./herald} runs with: state under {@code HERALD_STATE_DIR} (default
     * {@code <root>/.herald}), ports and existing servers and fixed credentials from the variables documented in
     * {@code docs/local-runtime.md}.
     */
    public static LocalSuiteConfig fromEnvironment(Path projectRoot, Map<String, String> env) {
        return LocalSuiteEnvironment.read(projectRoot, env);
    }

    public int port(HeraldService service) {
        return ports.get(service);
    }

    /** The extra variables of this one service (empty when none were given). */
    public Map<String, String> environmentOf(HeraldService service) {
        return environmentByService.getOrDefault(service, Map.of());
    }

    public int gatewayPort() {
        return port(HeraldService.API_GATEWAY);
    }

    /**
     * Where a service answers {@code /q/health/ready} and {@code /q/metrics}: the gateway's management port, the
     * main port of the others (not reachable from outside, they keep Quarkus's endpoints there; docs/security.md).
     */
    public int managementPort(HeraldService service) {
        return service == HeraldService.API_GATEWAY ? gatewayManagementPort : port(service);
    }

    public boolean embeddedPostgres() {
        return existingDatabaseUrl == null;
    }

    public boolean embeddedKafka() {
        return existingKafka == null;
    }

    /** {@code http://127.0.0.1:<port>} of the provider fakes (only when {@link #providerFakes()}). */
    public String providerFakesUrl() {
        if (!providerFakes) {
            throw new IllegalStateException("this suite runs no provider fakes");
        }
        return "http://127.0.0.1:" + providerFakesPort;
    }

    public StateDirectory state() {
        return new StateDirectory(stateDir);
    }

    /** Every port this configuration listens on, named by what listens there (existing servers excluded). */
    public Map<String, Integer> listeningPorts() {
        return SuitePorts.wanted(
                ports,
                gatewayManagementPort,
                embeddedPostgres() ? postgresPort : null,
                embeddedKafka() ? kafkaPort : null,
                embeddedKafka() ? kafkaControllerPort : null,
                providerFakes ? providerFakesPort : null);
    }

    public Builder toBuilder() {
        Builder builder = new Builder(projectRoot)
                .stateDir(stateDir)
                .gatewayManagementPort(gatewayManagementPort)
                .postgresPort(postgresPort)
                .kafkaPorts(kafkaPort, kafkaControllerPort)
                .existingDatabaseUrl(existingDatabaseUrl)
                .existingKafka(existingKafka)
                .demoTestKey(demoTestKey)
                .demoLiveKey(demoLiveKey)
                .adminToken(adminToken)
                .serviceCommand(serviceCommand)
                .readinessTimeout(readinessTimeout)
                .stopGracePeriod(stopGracePeriod)
                .progress(progress)
                .serviceEnvironment(serviceEnvironment);
        builder.providerFakes(providerFakes)
                .providerFakesPort(providerFakesPort)
                .durablePostgres(durablePostgres);
        environmentByService.forEach(builder::serviceEnvironment);
        ports.forEach(builder::port);
        return builder;
    }

    /** Never prints the credential overrides. */
    @Override
    public String toString() {
        return "LocalSuiteConfig[projectRoot=" + projectRoot + ", stateDir=" + stateDir + ", ports="
                + listeningPorts() + ", existingDatabase=" + (existingDatabaseUrl != null)
                + ", existingKafka=" + existingKafka + ", fixedCredentials=" + (demoTestKey != null) + "/"
                + (demoLiveKey != null) + "/" + (adminToken != null) + ", providerFakes=" + providerFakes()
                + ", durablePostgres=" + durablePostgres + "]";
    }

    private static void requirePrefix(String name, String value, String prefix) {
        if (value != null && !value.startsWith(prefix)) {
            // The gateway derives the key's mode from its prefix; a key without it would never authenticate.
            throw new IllegalArgumentException(name + " must start with " + prefix);
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    public static final class Builder {
        private final Path projectRoot;
        private Path stateDir;
        private final Map<HeraldService, Integer> ports = new EnumMap<>(HeraldService.class);
        private int gatewayManagementPort = DEFAULT_GATEWAY_MANAGEMENT_PORT;
        private int postgresPort = DEFAULT_POSTGRES_PORT;
        private int kafkaPort = DEFAULT_KAFKA_PORT;
        private int kafkaControllerPort = DEFAULT_KAFKA_CONTROLLER_PORT;
        private String existingDatabaseUrl;
        private String existingKafka;
        private String demoTestKey;
        private String demoLiveKey;
        private String adminToken;
        private ServiceCommand serviceCommand;
        private Duration readinessTimeout = DEFAULT_READINESS_TIMEOUT;
        private Duration stopGracePeriod = Duration.ofSeconds(15);
        private Consumer<String> progress = message -> {};
        private Map<String, String> serviceEnvironment = Map.of();
        private final Map<HeraldService, Map<String, String>> environmentByService = new EnumMap<>(HeraldService.class);
        private boolean providerFakes;
        private int providerFakesPort = ProviderFakes.DEFAULT_PORT;
        private boolean durablePostgres = true;

        private Builder(Path projectRoot) {
            this.projectRoot = Objects.requireNonNull(projectRoot, "projectRoot");
        }

        public Builder stateDir(Path stateDir) {
            this.stateDir = stateDir;
            return this;
        }

        public Builder port(HeraldService service, int port) {
            ports.put(service, port);
            return this;
        }

        public Builder gatewayPort(int port) {
            return port(HeraldService.API_GATEWAY, port);
        }

        public Builder gatewayManagementPort(int port) {
            this.gatewayManagementPort = port;
            return this;
        }

        public Builder postgresPort(int port) {
            this.postgresPort = port;
            return this;
        }

        public Builder kafkaPorts(int port, int controllerPort) {
            this.kafkaPort = port;
            this.kafkaControllerPort = controllerPort;
            return this;
        }

        /** Picks unused ports for everything, so a test suite never collides with a running {@code ./herald up}. */
        public Builder freePorts() {
            for (HeraldService service : HeraldService.values()) {
                port(service, FreePorts.next());
            }
            return gatewayManagementPort(FreePorts.next())
                    .postgresPort(FreePorts.next())
                    .kafkaPorts(FreePorts.next(), FreePorts.next())
                    .providerFakesPort(FreePorts.next());
        }

        public Builder existingDatabaseUrl(String url) {
            this.existingDatabaseUrl = url;
            return this;
        }

        public Builder existingKafka(String bootstrapServers) {
            this.existingKafka = bootstrapServers;
            return this;
        }

        public Builder demoTestKey(String key) {
            this.demoTestKey = key;
            return this;
        }

        public Builder demoLiveKey(String key) {
            this.demoLiveKey = key;
            return this;
        }

        public Builder adminToken(String token) {
            this.adminToken = token;
            return this;
        }

        public Builder serviceCommand(ServiceCommand command) {
            this.serviceCommand = command;
            return this;
        }

        public Builder readinessTimeout(Duration timeout) {
            this.readinessTimeout = timeout;
            return this;
        }

        public Builder stopGracePeriod(Duration gracePeriod) {
            this.stopGracePeriod = gracePeriod;
            return this;
        }

        /** Receives one line per step while the suite starts and stops (the CLI prints them). */
        public Builder progress(Consumer<String> progress) {
            this.progress = progress;
            return this;
        }

        /**
         * Extra variables for every service, on top of the launcher's contract (a system test's plan
         * overrides, say). {@code ./herald} needs none: services inherit its environment.
         */
        public Builder serviceEnvironment(Map<String, String> environment) {
            this.serviceEnvironment = environment;
            return this;
        }

        /** Extra variables for this service only (the gateway's OIDC client in the system tests, say). */
        public Builder serviceEnvironment(HeraldService service, Map<String, String> environment) {
            this.environmentByService.put(service, Map.copyOf(environment));
            return this;
        }

        /**
         * Runs the provider fakes next to the services and points accounts-service's OAuth clients and
         * delivery-worker's publishers at them ({@code ./herald up --fake-providers}).
         */
        public Builder providerFakes(boolean run) {
            this.providerFakes = run;
            return this;
        }

        /** Where the provider fakes listen (default 8190), when they run. */
        public Builder providerFakesPort(int port) {
            this.providerFakesPort = port;
            return this;
        }

        /**
         * Whether the embedded PostgreSQL syncs its write-ahead log to disk at each commit ({@code fsync}; on by
         * default, as {@code ./herald up} runs it). The system tests turn it off for speed: a SIGKILL of PostgreSQL
         * loses nothing the operating system already holds either way, only a crash of the machine would.
         */
        public Builder durablePostgres(boolean durable) {
            this.durablePostgres = durable;
            return this;
        }

        public LocalSuiteConfig build() {
            Path root = projectRoot.toAbsolutePath().normalize();
            return new LocalSuiteConfig(
                    root,
                    stateDir != null ? stateDir : root.resolve(".herald"),
                    ports,
                    gatewayManagementPort,
                    postgresPort,
                    kafkaPort,
                    kafkaControllerPort,
                    existingDatabaseUrl,
                    existingKafka,
                    demoTestKey,
                    demoLiveKey,
                    adminToken,
                    serviceCommand != null ? serviceCommand : ServiceCommand.quarkusJar(root),
                    readinessTimeout,
                    stopGracePeriod,
                    progress,
                    serviceEnvironment,
                    providerFakes,
                    providerFakesPort,
                    environmentByService,
                    durablePostgres);
        }
    }
}
