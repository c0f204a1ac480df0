package dev.herald.deploy.helm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.local.HeraldService;
import dev.herald.local.PodmanCommand;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code ./herald up --containers} and ContainerSuiteIT run each image as the chart's pods run it (values-minimal.yaml):
 * the same security context, writable path, limits, stop grace, probe paths and shutdown settings. A change to one side alone fails
 * here, so what the containers prove stays what a cluster gets.
 */
class ChartInPodmanTest {

    @Test
    void podmanRunsEachServiceAsTheMinimalChartsPod() {
        RenderedChart chart = RenderedChart.render("values-minimal.yaml");
        for (HeraldService service : HeraldService.values()) {
            List<String> run = new PodmanCommand(Path.of(".")).commandLine(service, Map.of());
            PodSpec pod =
                    chart.deployment(service.module()).getSpec().getTemplate().getSpec();
            Container container = pod.getContainers().get(0);
            String what = service.module();

            assertThat(container.getSecurityContext().getReadOnlyRootFilesystem())
                    .as(what)
                    .isTrue();
            assertThat(run).as(what).contains("--read-only", "--read-only-tmpfs=false");
            assertThat(run)
                    .as(what)
                    .contains("--user=" + pod.getSecurityContext().getRunAsUser() + ":"
                            + pod.getSecurityContext().getRunAsGroup());
            assertThat(container.getSecurityContext().getCapabilities().getDrop())
                    .as(what)
                    .containsExactly("ALL");
            assertThat(run).as(what).contains("--cap-drop=ALL");
            assertThat(container.getSecurityContext().getAllowPrivilegeEscalation())
                    .as(what)
                    .isFalse();
            assertThat(run).as(what).contains("--security-opt=no-new-privileges");

            // The only writable path: the emptyDir at /tmp, a tmpfs of the same size.
            assertThat(container.getVolumeMounts())
                    .as(what)
                    .extracting(VolumeMount::getMountPath)
                    .containsExactly("/tmp");
            Volume tmp = pod.getVolumes().get(0);
            assertThat(run)
                    .as(what)
                    .contains("--tmpfs=/tmp:rw,size="
                            + mebibytes(tmp.getEmptyDir().getSizeLimit()) + "m,mode=1777");

            Map<String, Quantity> limits = container.getResources().getLimits();
            assertThat(run)
                    .as(what)
                    .contains(
                            "--memory=" + mebibytes(limits.get("memory")) + "m",
                            "--cpus=" + limits.get("cpu").getAmount());
            assertThat(run).as(what).contains("--stop-timeout=" + pod.getTerminationGracePeriodSeconds());
            assertThat(container.getStartupProbe().getFailureThreshold()
                            * container.getStartupProbe().getPeriodSeconds())
                    .as(what + "'s start allowance")
                    .isEqualTo(PodmanCommand.STARTUP_SECONDS);
            // The paths ContainerSuiteIT asks every container for.
            assertThat(List.of(
                            container.getStartupProbe().getHttpGet().getPath(),
                            container.getLivenessProbe().getHttpGet().getPath(),
                            container.getReadinessProbe().getHttpGet().getPath()))
                    .as(what)
                    .containsExactly("/q/health/started", "/q/health/live", "/q/health/ready");
            assertThat(chart.config(service.module()))
                    .as(what + "'s ConfigMap")
                    .containsAllEntriesOf(PodmanCommand.CHART_ENVIRONMENT);
        }
    }

    private static long mebibytes(Quantity quantity) {
        return Quantity.getAmountInBytes(quantity).longValueExact() / (1024 * 1024);
    }
}
