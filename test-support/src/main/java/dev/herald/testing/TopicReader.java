package dev.herald.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads what services published to the shared test broker, for messaging tests. The reader assigns itself every
 * partition instead of joining a consumer group: a group join costs a coordinator round and a rebalance per read.
 */
public final class TopicReader {
    private static final Duration POLL = Duration.ofMillis(100);

    private TopicReader() {}

    /** Reads {@code topic} from the start until {@code expected} records with this key arrived, or the time is up. */
    public static List<ConsumerRecord<String, String>> recordsKeyed(
            String topic, String key, int expected, Duration timeout) {
        List<ConsumerRecord<String, String>> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = consumer()) {
            Instant deadline = Instant.now().plus(timeout);
            List<TopicPartition> partitions = partitions(consumer, topic, deadline);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (found.size() < expected && Instant.now().isBefore(deadline)) {
                for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                    if (key.equals(record.key())) {
                        found.add(record);
                    }
                }
            }
        }
        return found;
    }

    /** Every record with this key that is on {@code topic} now: read from the start up to the current end. */
    public static List<ConsumerRecord<String, String>> recordsKeyedSoFar(String topic, String key) {
        List<ConsumerRecord<String, String>> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = consumer()) {
            List<TopicPartition> partitions = partitions(consumer, topic, Instant.now());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition))) {
                for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                    if (key.equals(record.key())
                            && record.offset() < end.get(new TopicPartition(topic, record.partition()))) {
                        found.add(record);
                    }
                }
            }
        }
        return found;
    }

    /**
     * Waits until consumer group {@code group} has committed every record on {@code topic} so far: the service has
     * handled all it was sent (a service commits an offset only once the record's work is done). Fails when the time
     * is up.
     */
    public static void awaitConsumed(String group, String topic, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        try (KafkaConsumer<String, String> consumer = consumer();
                Admin admin = Admin.create(
                        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, RealInfrastructure.bootstrapServers()))) {
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions(consumer, topic, deadline));
            while (true) {
                Map<TopicPartition, OffsetAndMetadata> committed;
                try {
                    committed = admin.listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata()
                            .get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("could not read the offsets of group " + group, e);
                }
                boolean consumed = end.entrySet().stream()
                        .allMatch(partition -> partition.getValue() == 0
                                || (committed.get(partition.getKey()) != null
                                        && committed.get(partition.getKey()).offset() >= partition.getValue()));
                if (consumed) {
                    return;
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError("group " + group + " has not committed " + topic + " up to " + end
                            + " within " + timeout + "; committed: " + committed);
                }
                Thread.sleep(POLL.toMillis());
            }
        }
    }

    private static KafkaConsumer<String, String> consumer() {
        return new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, RealInfrastructure.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()));
    }

    /** The topic's partitions; a topic nobody has written to yet is created by this lookup (auto-creation). */
    private static List<TopicPartition> partitions(
            KafkaConsumer<String, String> consumer, String topic, Instant deadline) {
        while (true) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
            if (!partitions.isEmpty() || Instant.now().isAfter(deadline)) {
                return partitions;
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return partitions;
            }
        }
    }
}
