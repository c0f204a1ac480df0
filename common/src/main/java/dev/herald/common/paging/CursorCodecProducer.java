package dev.herald.common.paging;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.nio.charset.StandardCharsets;

@ApplicationScoped
public class CursorCodecProducer {
    @Produces
    @ApplicationScoped
    CursorCodec cursorCodec(CursorConfig config) {
        String secret = config.secret()
                .filter(s -> !s.isBlank())
                .orElseThrow(() -> new IllegalStateException("herald.cursor.secret is not configured"));
        return new CursorCodec(secret.getBytes(StandardCharsets.UTF_8));
    }
}
