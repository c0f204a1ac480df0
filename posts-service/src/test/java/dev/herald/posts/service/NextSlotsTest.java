package dev.herald.posts.service;

import static dev.herald.posts.support.PostsTestSupport.execute;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.auth.Mode;
import dev.herald.common.client.AccountsClient;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.AccountForPosting;
import dev.herald.posts.support.FakeUpstreams;
import dev.herald.posts.support.PostsTestSupport;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The slot a next_slot post takes, from a given instant (what acceptance reads from its clock): across the
 * daylight-saving changes of Europe/Berlin and America/New_York, one post per slot.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = PostsTestSupport.DATABASE),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUpstreams.class, scope = TestResourceScope.MATCHING_RESOURCES)
class NextSlotsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    NextSlots nextSlots;

    @Inject
    AccountsClient accounts;

    private String workspace;
    private String profile;
    private List<AccountForPosting> destinations;

    @BeforeEach
    void newProfile() {
        FakeUpstreams.ensureStarted();
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        profile = ResourceIds.newId(IdPrefix.PROFILE);
        String account = FakeUpstreams.addAccount(workspace, "test", "linkedin", "user_dst", profile);
        destinations = List.copyOf(accounts.lookup(workspace, Mode.TEST, List.of(account))
                .await()
                .atMost(WAIT)
                .values());
    }

    /**
     * Claims the next slot as acceptance does (its unfinished-acceptance row first) at {@code now}. The row is started
     * at the real time, not at {@code now}: AbandonedAcceptanceJob, running in this JVM, abandons rows started long ago
     * and frees their slots, which let the next claim take the same slot again now and then.
     */
    private Instant accept(Instant now) throws Exception {
        NextSlots.Choice choice = nextSlots
                .choose(workspace, Mode.TEST, destinations, now)
                .await()
                .atMost(WAIT);
        assertThat(choice.problem()).isNull();
        String post = ResourceIds.newId(IdPrefix.POST);
        execute("""
                insert into unfinished_acceptances
                    (post_id, workspace_id, mode, idempotency_key, claim_token, reservation_ids, profile_ids, started_at)
                values (?, ?, 'test', ?, 'claim', ?, ?, ?)""", post, workspace, post, new String[0], new String[] {profile}, Timestamp.from(Instant.now()));
        Instant claimed =
                nextSlots.claim(post, workspace, Mode.TEST, choice, now).await().atMost(WAIT);
        assertThat(claimed).as("the slot validation proposed").isEqualTo(choice.at());
        return claimed;
    }

    @Test
    void berlinsSpringForwardMovesTheSkippedSlotAndPostsEachInstantOnce() throws Exception {
        FakeUpstreams.setQueue(
                workspace, "test", profile, "Europe/Berlin", "sunday 01:30", "sunday 02:30", "sunday 03:30");
        // 2026-03-29 00:00Z is 01:00 CET, an hour before the change.
        Instant now = Instant.parse("2026-03-29T00:00:00Z");

        assertThat(accept(now)).isEqualTo(Instant.parse("2026-03-29T00:30:00Z")); // 01:30 CET
        assertThat(accept(now)).isEqualTo(Instant.parse("2026-03-29T01:30:00Z")); // 02:30 is 03:30 CEST
        // 03:30 CEST is that same instant, so the next slot is a week later, in summer time.
        assertThat(accept(now)).isEqualTo(Instant.parse("2026-04-04T23:30:00Z")); // 01:30 CEST
    }

    @Test
    void newYorksFallBackPostsTheRepeatedSlotOnce() throws Exception {
        FakeUpstreams.setQueue(workspace, "test", profile, "America/New_York", "sunday 01:30");
        // 2026-11-01 04:00Z is 00:00 EDT; 01:00 to 02:00 happens twice that night.
        Instant now = Instant.parse("2026-11-01T04:00:00Z");

        assertThat(accept(now)).isEqualTo(Instant.parse("2026-11-01T05:30:00Z")); // 01:30 EDT, the first
        assertThat(accept(now)).isEqualTo(Instant.parse("2026-11-08T06:30:00Z")); // 01:30 EST a week later
    }

    @Test
    void aSlotLessThanFiveSecondsAheadIsNotTaken() throws Exception {
        FakeUpstreams.setQueue(workspace, "test", profile, "UTC", "monday 09:00");

        assertThat(accept(Instant.parse("2026-11-30T08:59:56Z"))).isEqualTo(Instant.parse("2026-12-07T09:00:00Z"));
        assertThat(accept(Instant.parse("2026-11-30T08:59:55Z"))).isEqualTo(Instant.parse("2026-11-30T09:00:00Z"));
    }
}
