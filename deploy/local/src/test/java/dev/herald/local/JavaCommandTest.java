package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JavaCommandTest {
    private final String before = System.getProperty(JavaCommand.EXTRA_OPTIONS);

    @AfterEach
    void restoreProperty() {
        if (before == null) {
            System.clearProperty(JavaCommand.EXTRA_OPTIONS);
        } else {
            System.setProperty(JavaCommand.EXTRA_OPTIONS, before);
        }
    }

    @Test
    void extraOptionsComeRightAfterTheLauncherSoTheyNeverBecomeProgramArguments() {
        System.setProperty(JavaCommand.EXTRA_OPTIONS, " -XX:TieredStopAtLevel=1   -Xshare:auto ");

        assertThat(JavaCommand.with("-Xmx64m", "-jar", "app.jar"))
                .containsExactly(
                        JavaCommand.launcher(),
                        "-XX:TieredStopAtLevel=1",
                        "-Xshare:auto",
                        "-Xmx64m",
                        "-jar",
                        "app.jar");
    }

    @Test
    void withoutExtraOptionsTheCommandIsTheLauncherAndTheGivenOptions() {
        System.setProperty(JavaCommand.EXTRA_OPTIONS, "");

        assertThat(JavaCommand.with("-jar", "app.jar")).containsExactly(JavaCommand.launcher(), "-jar", "app.jar");
    }
}
