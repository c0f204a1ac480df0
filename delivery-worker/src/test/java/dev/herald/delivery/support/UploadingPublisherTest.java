package dev.herald.delivery.support;

import com.github.tomakehurst.wiremock.client.WireMock;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.UsageReservation;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * What the tests of a publisher that uploads media through media ingest share: a media host generating the files,
 * for the class, and for each test a new live target with its destination's media reservation id. The concrete class
 * carries the Quarkus annotations (the database, {@link FakePlatformApis} and {@link FakeUsageService}).
 */
public abstract class UploadingPublisherTest {
    protected static GeneratedMedia media;

    protected LiveTarget target;
    protected WireMock fake;
    protected String reservationId;

    @BeforeAll
    static void mediaHost() throws Exception {
        media = new GeneratedMedia();
    }

    @AfterAll
    static void stopMediaHost() throws Exception {
        media.close();
    }

    /** A new target whose account is {@code externalId} at {@code platform}, its access token {@code token}. */
    protected void newTarget(Platform platform, String externalId, String token) {
        FakeUsageService.ensureStarted();
        target = new LiveTarget(platform, externalId, token);
        fake = target.fake;
        reservationId = UsageReservation.mediaBytesId(target.postId, target.accountId);
    }

    /** What media ingest asked usage-service for this target's reservation, in order ({@code reserve}, {@code consume}, ...). */
    protected List<String> mediaCallKinds() {
        return FakeUsageService.mediaCallKinds(reservationId);
    }
}
