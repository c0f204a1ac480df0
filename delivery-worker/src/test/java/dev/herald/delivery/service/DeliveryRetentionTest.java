package dev.herald.delivery.service;

import static dev.herald.delivery.support.DeliveryTestSupport.rows;
import static dev.herald.delivery.support.DeliveryTestSupport.update;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.common.wire.UsageReservation;
import dev.herald.delivery.provider.PublishRequest;
import dev.herald.delivery.support.FakeUsageService;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Published and failed deliveries are deleted 8 days (the default retention) after they completed, with the sandbox's,
 * the live ledger's and YouTube's upload-session rows for their calls; nothing still in progress is.
 */
@QuarkusTest
@WithTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "delivery_test"),
        scope = TestResourceScope.MATCHING_RESOURCES)
@WithTestResource(value = FakeUsageService.class, scope = TestResourceScope.MATCHING_RESOURCES)
class DeliveryRetentionTest {
    @Inject
    DeliveryRetention retention;

    private final String workspace = ResourceIds.newId(IdPrefix.WORKSPACE);

    @BeforeEach
    void startFakes() {
        FakeUsageService.ensureStarted();
    }

    @Test
    void deliveriesFinalForLongerThanTheRetentionGoWithTheirProvidersMemoryAndNothingElseDoes() throws Exception {
        Instant expired = Instant.now().minus(Duration.ofDays(9));
        Instant retained = Instant.now().minus(Duration.ofDays(7));
        String oldPublished = delivery("published", expired);
        sandboxCall(oldPublished);
        String oldFailed = delivery("failed", expired);
        ledgerCall(oldFailed);
        uploadSession(oldFailed);
        // Rows still in progress stay however long ago they changed; the worker's loops will not touch them before a
        // day from now.
        String uncertain = delivery("uncertain", expired);
        String pending = delivery("pending", expired);
        String recentPublished = delivery("published", retained);
        sandboxCall(recentPublished);
        ledgerCall(recentPublished);
        uploadSession(recentPublished);

        long purged = retention.purge().await().atMost(Duration.ofSeconds(30));

        assertThat(purged).isGreaterThanOrEqualTo(2);
        assertThat(rows("select post_id from deliveries where workspace_id = ?", workspace))
                .extracting(row -> row.get("post_id"))
                .containsExactlyInAnyOrder(uncertain, pending, recentPublished);
        assertThat(tokens("sandbox_publications", oldPublished, recentPublished))
                .containsExactly(token(recentPublished));
        assertThat(tokens("sandbox_publish_calls", oldPublished, recentPublished))
                .containsExactly(token(recentPublished));
        assertThat(tokens("provider_publications", oldFailed, recentPublished)).containsExactly(token(recentPublished));
        assertThat(tokens("youtube_upload_sessions", oldFailed, recentPublished))
                .containsExactly(token(recentPublished));
    }

    /** A delivery of a new post to a new account, in {@code status}, last changed (and completed) at {@code at}. */
    private String delivery(String status, Instant at) throws Exception {
        String postId = ResourceIds.newId(IdPrefix.POST);
        String accountId = accountOf(postId);
        Timestamp changed = Timestamp.from(at);
        Timestamp dayAhead = Timestamp.from(Instant.now().plus(Duration.ofDays(1)));
        boolean pending = status.equals("pending");
        update(
                """
                insert into deliveries (post_id, account_id, workspace_id, mode, platform, account_username, reservation_id,
                    text, platform_options, status, attempts, next_attempt_at, source_event_id, created_at, updated_at,
                    completed_at, reconcile_at)
                values (?, ?, ?, 'test', 'tiktok', 'acme_tiktok', ?, 'Hello from Herald', '{}', ?, 1, ?, ?, ?, ?, ?, ?)""",
                postId,
                accountId,
                workspace,
                UsageReservation.publicationId(postId, accountId),
                status,
                pending ? dayAhead : null,
                ResourceIds.newId(IdPrefix.EVENT),
                changed,
                changed,
                pending ? null : changed,
                status.equals("uncertain") ? dayAhead : null);
        return postId;
    }

    private void sandboxCall(String postId) throws Exception {
        update(
                "insert into sandbox_publications (token, provider_post_id, publish_calls, created_at, last_called_at)"
                        + " values (?, 'sbx_1', 1, now(), now())",
                token(postId));
        update(
                "insert into sandbox_publish_calls (token, call_number, attempt, called_at, provider_post_id)"
                        + " values (?, 1, 1, now(), 'sbx_1')",
                token(postId));
    }

    private void ledgerCall(String postId) throws Exception {
        update(
                "insert into provider_publications (token, platform, state, calls, created_at, updated_at)"
                        + " values (?, 'linkedin', 'refused', 1, now(), now())",
                token(postId));
    }

    private void uploadSession(String postId) throws Exception {
        update(
                "insert into youtube_upload_sessions (token, session_uri, size, created_at)"
                        + " values (?, 'https://www.googleapis.com/upload/youtube/v3/videos?upload_id=x', 1024, now())",
                token(postId));
    }

    private List<Object> tokens(String table, String... postIds) throws Exception {
        List<Object> found = new ArrayList<>();
        for (String postId : postIds) {
            rows("select token from " + table + " where token = ?", token(postId))
                    .forEach(row -> found.add(row.get("token")));
        }
        return found;
    }

    /** Each post here goes to one account, named after it so the token can be derived from the post alone. */
    private static String accountOf(String postId) {
        return "acc_" + postId.substring(postId.indexOf('_') + 1);
    }

    private static String token(String postId) {
        return PublishRequest.tokenOf(postId, accountOf(postId));
    }
}
