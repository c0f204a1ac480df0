package dev.herald.gateway.model;

import dev.herald.common.auth.Mode;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/** Stores {@link Mode} as its wire name ({@code test}, {@code live}), as every Herald table does. */
@Converter
public class ModeConverter implements AttributeConverter<Mode, String> {
    @Override
    public String convertToDatabaseColumn(Mode mode) {
        return mode == null ? null : mode.wireName();
    }

    @Override
    public Mode convertToEntityAttribute(String value) {
        return value == null ? null : Mode.fromWire(value).orElseThrow();
    }
}
