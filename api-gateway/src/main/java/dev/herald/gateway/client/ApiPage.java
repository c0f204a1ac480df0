package dev.herald.gateway.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;

/**
 * One page of an API list ({@code { data: [...], meta: { next_cursor, has_more } }}) parsed into a wire record;
 * {@code nextCursor} is null on the last page.
 */
public record ApiPage<T>(List<T> items, String nextCursor) {

    public static <T> ApiPage<T> of(ApiAnswer answer, ObjectMapper mapper, Class<T> type) {
        List<T> items =
                mapper.convertValue(answer.data(), mapper.getTypeFactory().constructCollectionType(List.class, type));
        String next = answer.body().path("meta").path("next_cursor").asText(null);
        return new ApiPage<>(items == null ? List.of() : items, next);
    }
}
