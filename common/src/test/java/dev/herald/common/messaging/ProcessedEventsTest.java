package dev.herald.common.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.persistence.NamedStatement;
import org.junit.jupiter.api.Test;

class ProcessedEventsTest {
    @Test
    void aStatementChecksRecordsAndBindsTheEventOnce() {
        NamedStatement statement = NamedStatement.of("""
                with applied as (update t set done = true where id = :id and %s returning id),
                marked as (%s)
                select count(*) from applied""".formatted(
                ProcessedEvents.notProcessed(":event_id"), ProcessedEvents.record("select :event_id from applied")));

        assertThat(statement.names()).containsExactly("id", "event_id");
        assertThat(statement.sql())
                .contains("not exists (select 1 from processed_events where event_id = $2)")
                .contains("marked as (insert into processed_events (event_id) select $2 from applied)");
    }

    @Test
    void recordingOnlyNewIdsAnswersThem() {
        assertThat(ProcessedEvents.recordNew("select unnest(:ids::text[])"))
                .isEqualTo("insert into processed_events (event_id) select unnest(:ids::text[])"
                        + " on conflict do nothing returning event_id");
    }

    @Test
    void theRetentionPurgeIsBoundByName() {
        assertThat(ProcessedEvents.PURGE_BATCH.names()).containsExactly("retention_seconds", "batch_size");
    }
}
