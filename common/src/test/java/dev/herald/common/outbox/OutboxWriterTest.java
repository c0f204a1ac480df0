package dev.herald.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.persistence.NamedStatement;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutboxWriterTest {
    private final OutboxWriter outbox = new OutboxWriter(new ObjectMapper());

    @Test
    void aStatementWritesItsOutboxRowThroughTheWritersFragment() {
        NamedStatement statement =
                NamedStatement.of("with changed as (update t set x = :x returning id), recorded as (%s) select 1"
                        .formatted(OutboxWriter.insertOnePerRowOf("changed")));

        Tuple tuple = outbox.bind(
                        statement.parameters().set("x", 1),
                        new OutboxWriter.Entry("evt_1", "post.finalized", "pst_1", Map.of("a", 1), "00-tp"))
                .tuple();

        assertThat(statement.sql())
                .contains("insert into outbox (event_id, topic, message_key, payload, trace_parent)")
                .contains("from changed where $2::text is not null");
        assertThat(statement.names())
                .containsExactly(
                        "x",
                        "outbox_event_id",
                        "outbox_topic",
                        "outbox_message_key",
                        "outbox_payload",
                        "outbox_trace_parent");
        assertThat(tuple.getValue(1)).isEqualTo("evt_1");
        assertThat(tuple.getValue(4)).isEqualTo("{\"a\":1}");
        assertThat(tuple.getValue(5)).isEqualTo("00-tp");
    }

    @Test
    void noEntryBindsNullsSoNoRowIsWritten() {
        NamedStatement statement =
                NamedStatement.of("with c as (select 1) %s".formatted(OutboxWriter.insertOnePerRowOf("c")));

        Tuple tuple = outbox.bind(statement.parameters(), null).tuple();

        for (int i = 0; i < tuple.size(); i++) {
            assertThat(tuple.getValue(i)).isNull();
        }
    }

    @Test
    void severalRowsAreBoundAsOneArrayPerColumn() {
        NamedStatement statement = NamedStatement.of(
                "with m as (select 1) %s".formatted(OutboxWriter.insertAllWhen("exists (select 1 from m)")));

        Tuple tuple = outbox.bindAll(
                        statement.parameters(),
                        List.of(
                                new OutboxWriter.Entry("evt_1", "usage.reserved", "k1", Map.of(), null),
                                new OutboxWriter.Entry("evt_2", "usage.reserved", "k2", Map.of(), null)))
                .tuple();

        assertThat(statement.sql()).endsWith("where exists (select 1 from m)");
        assertThat((String[]) tuple.getValue(0)).containsExactly("evt_1", "evt_2");
        assertThat((String[]) tuple.getValue(2)).containsExactly("k1", "k2");
    }
}
