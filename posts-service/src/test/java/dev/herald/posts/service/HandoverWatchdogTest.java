package dev.herald.posts.service;

import static dev.herald.posts.support.PostsTestSupport.execute;
import static dev.herald.posts.support.PostsTestSupport.insertPost;
import static dev.herald.posts.support.PostsTestSupport.insertTarget;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.events.PostAcceptedEvent;
import dev.herald.common.events.Topics;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.posts.metrics.UnfinishedTargetAge;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TopicReader;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A handover that never reached delivery-worker, found and repeated once (default timeout, 10 min: the rows are written
 * as that long ago), and the gauge of the oldest unfinished target.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class HandoverWatchdogTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    HandoverWatchdog watchdog;

    @Inject
    UnfinishedTargetAge age;

    @Inject
    MeterRegistry registry;

    @Inject
    ObjectMapper mapper;

    private String workspace;

    @BeforeEach
    void newWorkspace() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
    }

    @Test
    void aPostWhoseHandoverWasLostIsHandedOverOnceNamingOnlyItsUnansweredTargets() throws Throwable {
        String post = handedOver("11 minutes");
        String lost = ResourceIds.newId(IdPrefix.ACCOUNT);
        insertTarget(post, 0, lost, "linkedin", "publishing", null, 0);
        // Held for a reconnection, or uncertain: the worker said so, so it has them.
        insertTarget(post, 1, ResourceIds.newId(IdPrefix.ACCOUNT), "tiktok", "queued", null, 0);
        insertTarget(post, 2, ResourceIds.newId(IdPrefix.ACCOUNT), "youtube", "uncertain", null, 0);

        repeatUnanswered();
        repeatUnanswered();

        List<ConsumerRecord<String, String>> records =
                TopicReader.recordsKeyed(Topics.POST_ACCEPTED, post, 2, Duration.ofSeconds(5));
        assertThat(records).as("handovers repeated").hasSize(1);
        PostAcceptedEvent again = mapper.readValue(records.get(0).value(), PostAcceptedEvent.class);
        assertThat(again.deliveries())
                .singleElement()
                .satisfies(delivery -> assertThat(delivery.accountId()).isEqualTo(lost));
        assertThat(again.post().targets()).hasSize(3);
        assertThat(PostsTestSupport.count(
                        "select count(*) from posts where id = ? and handover_repeated_at is not null", post))
                .isEqualTo(1);
    }

    @Test
    void aPostHandedOverRecentlyIsLeftToDelivery() throws Throwable {
        String post = handedOver("2 minutes");
        insertTarget(post, 0, ResourceIds.newId(IdPrefix.ACCOUNT), "linkedin", "publishing", null, 0);

        repeatUnanswered();

        assertThat(TopicReader.recordsKeyed(Topics.POST_ACCEPTED, post, 1, Duration.ofSeconds(3)))
                .isEmpty();
    }

    @Test
    void theGaugeShowsHowLongTheOldestUnfinishedTargetHasBeenDue() throws Throwable {
        String post = handedOver("11 minutes");
        insertTarget(post, 0, ResourceIds.newId(IdPrefix.ACCOUNT), "linkedin", "publishing", null, 0);

        age.refresh().await().atMost(WAIT);

        double publishing = registry.get("herald.posts.oldest.unfinished.target.age")
                .tag("status", "publishing")
                .gauge()
                .value();
        assertThat(publishing).isGreaterThanOrEqualTo(Duration.ofMinutes(11).toSeconds() - 5);
        execute("update posts set status = 'published' where id = ?", post);
    }

    /** One look, on a Vert.x context as Hibernate Reactive needs (the job's own runs have one). */
    private void repeatUnanswered() throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> watchdog.repeatUnanswered());
    }

    /** A publishing post due and handed over {@code ago}. */
    private String handedOver(String ago) throws Throwable {
        String post = insertPost(workspace, "test", "publishing");
        execute(
                "update posts set due_at = now() - cast(? as interval), dispatched_at = now() - cast(? as interval),"
                        + " created_at = now() - cast(? as interval) where id = ?",
                ago,
                ago,
                ago,
                post);
        return post;
    }
}
