package dev.herald.deploy.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.DryRun;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The chart rendered by {@code helm template} (helm-java: Helm compiled into the test's classpath, no binary),
 * every document read into its fabric8 Kubernetes model class. Reading fails on anything the model does not
 * know: a kind or apiVersion Kubernetes does not serve (fabric8 falls back to {@link GenericKubernetesResource})
 * or a field a type does not have (fabric8 keeps those in {@code additionalProperties} rather than failing, so
 * {@link #unknownFields} walks every object for them).
 */
final class RenderedChart {
    static final String RELEASE = "herald";
    static final String NAMESPACE = "herald";
    /** The oldest Kubernetes the chart claims (Chart.yaml's kubeVersion); helm-java would assume 1.20. */
    static final String KUBE_VERSION = "1.25.0";

    /**
     * What the copies {@link #renderWithHooks} renders call Helm's hook annotations ({@code helm.sh/hook},
     * {@code helm.sh/hook-weight}, ...): helm-java prints a release's resources and leaves hooks out.
     */
    static final String HOOK_ANNOTATION = "rendered-hook.herald.dev/hook";

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    static {
        KubernetesApiStub.start();
    }

    final String yaml;
    final List<HasMetadata> objects;

    private RenderedChart(String yaml, List<HasMetadata> objects) {
        this.yaml = yaml;
        this.objects = objects;
    }

    static Path chart() {
        return Path.of(System.getProperty("herald.chart", "herald")).toAbsolutePath();
    }

    /**
     * A copy of the chart in {@code target} whose values.yaml is the chart's defaults with {@code valuesFile} laid
     * over them as Helm does (maps merged key by key, anything else replaced), for commands that read only
     * values.yaml.
     */
    static Path chartWithValues(String valuesFile, Path target) throws IOException {
        Path chart = chart();
        copy(target);
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode merged = yaml.readTree(chart.resolve("values.yaml").toFile());
        merge((ObjectNode) merged, (ObjectNode)
                yaml.readTree(chart.resolve(valuesFile).toFile()));
        yaml.writeValue(target.resolve("values.yaml").toFile(), merged);
        return target;
    }

    /** A copy of the chart in {@code target}. */
    private static Path copy(Path target) throws IOException {
        Path chart = chart();
        try (Stream<Path> files = Files.walk(chart)) {
            for (Path file : files.toList()) {
                Path copy = target.resolve(chart.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return target;
    }

    private static void merge(ObjectNode base, ObjectNode overlay) {
        overlay.properties().forEach(entry -> {
            JsonNode current = base.get(entry.getKey());
            if (current instanceof ObjectNode currentObject && entry.getValue() instanceof ObjectNode overlayObject) {
                merge(currentObject, overlayObject);
            } else {
                base.set(entry.getKey(), entry.getValue());
            }
        });
    }

    /** The chart with the given values file of the chart (null: values.yaml alone) and {@code --set}s. */
    static RenderedChart render(String valuesFile, Consumer<TemplateCommand> settings) {
        TemplateCommand template = new Helm(chart())
                .template()
                .withName(RELEASE)
                .withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION);
        if (valuesFile != null) {
            Path values = chart().resolve(valuesFile);
            if (!Files.isRegularFile(values)) {
                throw new IllegalArgumentException("no values file " + values);
            }
            template.withValuesFile(values);
        }
        settings.accept(template);
        return parse(template.call());
    }

    static RenderedChart render(String valuesFile) {
        return render(valuesFile, template -> {});
    }

    /**
     * As {@link #render(String, Consumer)}, hooks included (the topic Job, the helm test Pod): a copy of the chart in
     * {@code target} whose templates spell the hook annotations {@link #HOOK_ANNOTATION}, so that Helm renders them
     * as ordinary resources.
     */
    static RenderedChart renderWithHooks(String valuesFile, Consumer<TemplateCommand> settings, Path target)
            throws IOException {
        Path copy = copy(target);
        try (Stream<Path> files = Files.walk(copy.resolve("templates"))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.writeString(file, Files.readString(file).replace("helm.sh/hook", HOOK_ANNOTATION));
            }
        }
        TemplateCommand template = new Helm(copy)
                .template()
                .withName(RELEASE)
                .withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION);
        if (valuesFile != null) {
            template.withValuesFile(chart().resolve(valuesFile));
        }
        settings.accept(template);
        return parse(template.call());
    }

    /** NOTES.txt as helm install prints it (a client-side dry run of an install). */
    static String notes(Consumer<InstallCommand> settings) {
        InstallCommand install = new Helm(chart())
                .install()
                .withName(RELEASE)
                .withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION)
                .dryRun()
                .withDryRunOption(DryRun.CLIENT)
                .clientOnly();
        settings.accept(install);
        String output = install.call().getOutput();
        int notes = output.indexOf("NOTES:");
        if (notes < 0) {
            throw new AssertionError("helm install printed no notes:\n" + output);
        }
        return output.substring(notes + "NOTES:".length());
    }

    static RenderedChart parse(String yaml) {
        List<HasMetadata> objects = new ArrayList<>();
        for (String document : yaml.split("(?m)^---\\s*$")) {
            if (document.lines().allMatch(line -> line.isBlank() || line.startsWith("#"))) {
                continue;
            }
            Object parsed = SERIALIZATION.unmarshal(document);
            if (!(parsed instanceof HasMetadata object) || parsed instanceof GenericKubernetesResource) {
                throw new AssertionError("not a Kubernetes kind the model knows:\n" + document);
            }
            List<String> unknown = unknownFields(object);
            if (!unknown.isEmpty()) {
                throw new AssertionError(object.getKind() + " "
                        + object.getMetadata().getName() + " has fields Kubernetes does not know: " + unknown);
            }
            objects.add(object);
        }
        return new RenderedChart(yaml, List.copyOf(objects));
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return all(type).stream()
                .filter(object -> object.getMetadata().getName().equals(name))
                .findFirst();
    }

    <T extends HasMetadata> T get(Class<T> type, String name) {
        return find(type, name).orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name));
    }

    Deployment deployment(String service) {
        return get(Deployment.class, RELEASE + "-" + service);
    }

    Map<String, String> config(String service) {
        return get(ConfigMap.class, RELEASE + "-" + service).getData();
    }

    /**
     * Paths of every field fabric8 could not map to the model (its {@code additionalProperties}), e.g.
     * {@code spec.template.spec.containers[0].readinesProbe}.
     */
    static List<String> unknownFields(Object object) {
        List<String> found = new ArrayList<>();
        collectUnknown(object, "", found);
        return found;
    }

    private static void collectUnknown(Object value, String path, List<String> found) {
        if (value == null) {
            return;
        }
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                collectUnknown(item, path + "[" + i++ + "]", found);
            }
            return;
        }
        if (value instanceof Map<?, ?> entries) {
            entries.forEach((key, item) -> collectUnknown(item, path + "." + key, found));
            return;
        }
        if (!value.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0
                    || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get")
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object child;
            try {
                child = getter.invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue;
            }
            String field = Character.toLowerCase(getter.getName().charAt(3))
                    + getter.getName().substring(4);
            String childPath = path.isEmpty() ? field : path + "." + field;
            if (getter.getName().equals("getAdditionalProperties")) {
                if (child instanceof Map<?, ?> extra) {
                    extra.keySet().forEach(key -> found.add((path.isEmpty() ? "" : path + ".") + key));
                }
            } else {
                collectUnknown(child, childPath, found);
            }
        }
    }
}
