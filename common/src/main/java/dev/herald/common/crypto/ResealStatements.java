package dev.herald.common.crypto;

import dev.herald.common.persistence.NamedStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The re-seal job's statements on one {@link SealedColumn}: values not sealed with the current key are those whose
 * text does not start with {@code hsc1.<current key id>.} (a prefix compared with {@code left}, not {@code like}: a key
 * id may hold {@code _}). No index serves this: a pass reads the table once, in primary key order, and a count reads
 * it once more; both are cheap beside how rarely a key rotates, and the job runs every few minutes at most.
 */
final class ResealStatements {
    /** One value sealed with a retired key, as claimed. */
    record Stale(Object id, String boundTo, String value) {}

    private final SealedColumn column;
    private final NamedStatement claimFirst;
    private final NamedStatement claimAfter;
    private final NamedStatement update;
    private final NamedStatement count;

    ResealStatements(SealedColumn column) {
        this.column = column;
        String stale = "left(" + column.text() + ", :length) <> :prefix";
        String select = "select " + column.id() + " as id, " + column.boundTo() + " as bound_to, " + column.text()
                + " as value from " + column.table() + " where " + stale;
        String claim = " order by " + column.id() + " limit :max for update skip locked";
        this.claimFirst = NamedStatement.of(select + claim);
        this.claimAfter = NamedStatement.of(select + " and " + column.id() + " > :after" + claim);
        this.update = NamedStatement.of(
                "update " + column.table() + " set " + column.value() + " = :value where " + column.id() + " = :id");
        this.count = NamedStatement.of("select count(*) as stale from " + column.table() + " where " + stale);
    }

    /**
     * Up to {@code max} values not sealed with {@code currentKeyId}, after {@code after} in primary key order (from
     * the start when null), locked for the connection's transaction; rows another replica holds are skipped.
     */
    Uni<List<Stale>> claim(SqlConnection connection, String currentKeyId, Object after, int max) {
        NamedStatement.Parameters parameters = (after == null ? claimFirst : claimAfter).parameters();
        if (after != null) {
            parameters.set("after", after);
        }
        String prefix = prefix(currentKeyId);
        return parameters
                .set("length", prefix.length())
                .set("prefix", prefix)
                .set("max", max)
                .execute(connection)
                .map(rows -> {
                    List<Stale> stale = new ArrayList<>();
                    for (Row row : rows) {
                        stale.add(new Stale(row.getValue("id"), row.getString("bound_to"), row.getString("value")));
                    }
                    return stale;
                });
    }

    Uni<Void> replace(SqlConnection connection, Object id, String resealed) {
        Object value = column.binary() ? Buffer.buffer(resealed.getBytes(StandardCharsets.US_ASCII)) : resealed;
        return update.parameters()
                .set("id", id)
                .set("value", value)
                .execute(connection)
                .replaceWithVoid();
    }

    /** How many values are not sealed with {@code currentKeyId}. */
    Uni<Long> countStale(SqlClient client, String currentKeyId) {
        String prefix = prefix(currentKeyId);
        return count.parameters()
                .set("length", prefix.length())
                .set("prefix", prefix)
                .execute(client)
                .map(rows -> rows.iterator().next().getLong("stale"));
    }

    @Override
    public String toString() {
        return column.toString();
    }

    private static String prefix(String keyId) {
        return SecretCipher.sealedPrefix(keyId);
    }
}
