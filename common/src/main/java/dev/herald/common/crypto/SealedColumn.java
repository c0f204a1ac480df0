package dev.herald.common.crypto;

/**
 * A column of values sealed by {@link SecretCipher}, for the re-seal job ({@link RetiredKeyResealJob}): a service
 * that stores sealed values produces one bean of this type per column.
 *
 * @param table the table
 * @param id its primary key column (one column, ordered)
 * @param value the sealed values ({@code hsc1.<key id>.…}, as text or as its ASCII bytes)
 * @param boundTo the column holding the associated data each value was sealed with (the account id, the endpoint id)
 * @param binary whether {@code value} is {@code bytea} rather than {@code text}
 */
public record SealedColumn(String table, String id, String value, String boundTo, boolean binary) {
    public SealedColumn {
        for (String name : new String[] {table, id, value, boundTo}) {
            if (name == null || !name.matches("[a-z_][a-z0-9_]{0,62}")) {
                throw new IllegalArgumentException("not a plain SQL name: " + name);
            }
        }
    }

    /** Where the value's text is read in SQL. */
    String text() {
        return binary ? "convert_from(" + value + ", 'UTF8')" : value;
    }

    @Override
    public String toString() {
        return table + "." + value;
    }
}
