package dev.herald.common.rest;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/** Herald's JSON: snake_case, RFC 3339 times, unknown properties, repeated keys and trailing text refused, nesting bounded. */
@Singleton
public class JsonMapperCustomizer implements ObjectMapperCustomizer {
    /** No Herald body nests anywhere near this; deeper input is hostile and is refused before binding. */
    public static final int MAX_NESTING_DEPTH = 32;

    @Override
    public void customize(ObjectMapper mapper) {
        configure(mapper);
    }

    public static ObjectMapper configure(ObjectMapper mapper) {
        mapper.setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
        mapper.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        mapper.enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
        // "{...} x" and "{...}{...}" are not one JSON document; without this the first value was used and the rest
        // ignored.
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .build());
        mapper.findAndRegisterModules();
        return mapper;
    }
}
