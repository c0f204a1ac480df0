package dev.herald.gateway.model;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/** Stores {@link MemberRole} as its wire name ({@code owner}, {@code developer}, {@code viewer}). */
@Converter
public class MemberRoleConverter implements AttributeConverter<MemberRole, String> {
    @Override
    public String convertToDatabaseColumn(MemberRole role) {
        return role == null ? null : role.wireName();
    }

    @Override
    public MemberRole convertToEntityAttribute(String value) {
        return value == null ? null : MemberRole.fromWire(value).orElseThrow();
    }
}
