package dev.herald.posts.messaging;

import static dev.herald.posts.support.PostsTestSupport.count;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.auth.Mode;
import dev.herald.common.events.TargetCompletedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.TargetError;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Outcomes sent faster than they are applied, so that the consumer polls many at once: each post's outcomes must
 * come out as they would one at a time, whatever the batches.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class OutcomeBurstTest {
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    @Inject
    ObjectMapper mapper;

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    private TargetCompletedEvent outcome(String post, String account, String status) {
        boolean published = PostTarget.PUBLISHED.equals(status);
        return new TargetCompletedEvent(
                ResourceIds.newId(IdPrefix.EVENT),
                TargetCompletedEvent.TYPE,
                NOW,
                workspace,
                Mode.TEST,
                post,
                account,
                post + "-" + account,
                status,
                1,
                published ? "li_" + post + account : null,
                published ? "https://linkedin.example/" + post : null,
                PostTarget.FAILED.equals(status)
                        ? new TargetError("provider_error", "The provider refused the post.", false, Map.of())
                        : null,
                NOW);
    }

    private String post(int targets) throws Exception {
        String post = PostsTestSupport.insertPost(workspace, "test", Post.PUBLISHING);
        for (int i = 0; i < targets; i++) {
            PostsTestSupport.insertTarget(post, i, "acc_" + i, "linkedin", PostTarget.PUBLISHING, null, 0);
        }
        return post;
    }

    private static String status(String post) throws Exception {
        for (String status : List.of(Post.PUBLISHING, Post.PUBLISHED, Post.PARTIALLY_FAILED, Post.FAILED)) {
            if (count("select count(*) from posts where id = ? and status = ?", post, status) == 1) {
                return status;
            }
        }
        throw new AssertionError("post " + post + " is in no status expected here");
    }

    @Test
    void aBurstOfOutcomesFinalizesEachPostOnceWhateverTheBatchesTheConsumerPolls() throws Exception {
        // Twelve posts of one target published; two fan-out posts whose outcomes arrive together (one mixed, one
        // failed); one whose target is first uncertain, then published; three redeliveries among them.
        List<String> single = new ArrayList<>();
        List<TargetCompletedEvent> sent = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String post = post(1);
            single.add(post);
            sent.add(outcome(post, "acc_0", PostTarget.PUBLISHED));
        }
        String mixed = post(3);
        String failed = post(2);
        String settledLater = post(1);
        sent.add(outcome(mixed, "acc_0", PostTarget.PUBLISHED));
        sent.add(outcome(failed, "acc_0", PostTarget.FAILED));
        sent.add(outcome(mixed, "acc_1", PostTarget.FAILED));
        sent.add(outcome(settledLater, "acc_0", PostTarget.UNCERTAIN));
        sent.add(outcome(failed, "acc_1", PostTarget.FAILED));
        sent.add(sent.get(3));
        sent.add(outcome(mixed, "acc_2", PostTarget.PUBLISHED));
        sent.add(sent.get(12));
        sent.add(outcome(settledLater, "acc_0", PostTarget.PUBLISHED));
        sent.add(sent.get(14));
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                "bootstrap.servers", RealInfrastructure.bootstrapServers(),
                "key.serializer", StringSerializer.class.getName(),
                "value.serializer", StringSerializer.class.getName(),
                "linger.ms", 50))) {
            for (TargetCompletedEvent event : sent) {
                producer.send(new ProducerRecord<>(
                        Topics.TARGET_COMPLETED, event.postId(), mapper.writeValueAsString(event)));
            }
            producer.flush();
        }

        List<String> posts = new ArrayList<>(single);
        posts.addAll(List.of(mixed, failed, settledLater));
        String finalizedEvents = "select count(*) from outbox where topic = 'post.finalized' and message_key = ?";
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline && countFinalized(posts, finalizedEvents) < posts.size()) {
            Thread.sleep(200);
        }
        for (String post : single) {
            assertThat(status(post)).as(post).isEqualTo(Post.PUBLISHED);
        }
        assertThat(status(mixed)).isEqualTo(Post.PARTIALLY_FAILED);
        assertThat(status(failed)).isEqualTo(Post.FAILED);
        assertThat(status(settledLater)).isEqualTo(Post.PUBLISHED);
        for (String post : posts) {
            assertThat(count(finalizedEvents, post)).as(post).isEqualTo(1);
        }
        assertThat(count(
                        "select count(*) from post_targets where post_id = ? and status = 'published' and provider_post_id is not null",
                        settledLater))
                .isEqualTo(1);
        String applied = "select count(*) from processed_events where event_id = any(string_to_array(?, ','))";
        List<String> distinct =
                sent.stream().map(TargetCompletedEvent::eventId).distinct().toList();
        assertThat(count(applied, String.join(",", distinct))).isEqualTo(distinct.size());
    }

    private static long countFinalized(List<String> posts, String finalizedEvents) throws Exception {
        long finalized = 0;
        for (String post : posts) {
            finalized += count(finalizedEvents, post);
        }
        return finalized;
    }
}
