package dev.herald.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {
    @Test
    void neverHandsOutTheSamePortTwice() {
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            assertThat(ports.add(FreePorts.next())).isTrue();
        }
    }

    @Test
    void handsOutPortsBelowTheKernelsEphemeralRange() {
        for (int i = 0; i < 50; i++) {
            assertThat(FreePorts.next()).isBetween(FreePorts.LOWEST, FreePorts.ABOVE_HIGHEST - 1);
        }
    }
}
