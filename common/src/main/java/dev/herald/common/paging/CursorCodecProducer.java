package dev.herald.common.paging;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.nio.charset.StandardCharsets;

@ApplicationScoped
public class CursorCodecProducer {
    @Produces
    @ApplicationScoped
    CursorCodec cursorCodec(CursorConfig config) {
        return new CursorCodec(config.secret().getBytes(StandardCharsets.UTF_8));
    }
}
