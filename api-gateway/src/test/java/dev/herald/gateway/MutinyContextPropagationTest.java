package dev.herald.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** common's MutinyContextPropagation, in a running service: Mutiny's callbacks are not wrapped. */
@QuarkusTest
class MutinyContextPropagationTest {

    @Test
    void mutinyCallbacksRunAsWrittenWithoutAContextWrapper() {
        Function<String, String> callback = String::trim;

        assertThat(Infrastructure.decorate(callback)).isSameAs(callback);
        assertThat(Uni.createFrom().item(" kept ").map(callback).await().indefinitely())
                .isEqualTo("kept");
    }
}
