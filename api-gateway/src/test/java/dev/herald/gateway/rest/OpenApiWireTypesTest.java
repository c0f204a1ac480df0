package dev.herald.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.common.api.ApiError;
import dev.herald.common.api.ApiException;
import dev.herald.common.api.DataEnvelope;
import dev.herald.common.api.ErrorCode;
import dev.herald.common.api.ErrorEnvelope;
import dev.herald.common.api.FieldError;
import dev.herald.common.api.ListEnvelope;
import dev.herald.common.api.ListMeta;
import dev.herald.common.auth.Mode;
import dev.herald.common.rest.JsonMapperCustomizer;
import dev.herald.common.wire.Account;
import dev.herald.common.wire.AccountAnalytics;
import dev.herald.common.wire.AccountEventData;
import dev.herald.common.wire.AccountHealth;
import dev.herald.common.wire.AnalyticsReason;
import dev.herald.common.wire.Branding;
import dev.herald.common.wire.Comment;
import dev.herald.common.wire.ConnectSession;
import dev.herald.common.wire.DeletedResource;
import dev.herald.common.wire.PinterestBoard;
import dev.herald.common.wire.PinterestBoardSection;
import dev.herald.common.wire.Platform;
import dev.herald.common.wire.Post;
import dev.herald.common.wire.PostAnalytics;
import dev.herald.common.wire.PostBatchItem;
import dev.herald.common.wire.PostMedia;
import dev.herald.common.wire.PostQueue;
import dev.herald.common.wire.PostSeries;
import dev.herald.common.wire.PostTarget;
import dev.herald.common.wire.PostValidation;
import dev.herald.common.wire.Profile;
import dev.herald.common.wire.RequestLog;
import dev.herald.common.wire.TargetError;
import dev.herald.common.wire.TikTokPublishingOptions;
import dev.herald.common.wire.Usage;
import dev.herald.common.wire.UsagePeriod;
import dev.herald.common.wire.UsageThreshold;
import dev.herald.common.wire.WebhookDelivery;
import dev.herald.common.wire.WebhookEndpoint;
import dev.herald.common.wire.WebhookEventTypes;
import dev.herald.openapi.OpenApiDocument;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The document's schemas describe the wire types of {@code common} as Herald's own ObjectMapper writes them:
 * the same property names, and sample values of each type conform (nulls, optional members and enums included).
 */
class OpenApiWireTypesTest {
    private static final ObjectMapper WIRE = JsonMapperCustomizer.configure(new ObjectMapper());
    private static final Instant T = Instant.parse("2026-05-01T10:15:30Z");
    private static final String PROFILE = "prf_0123456789abcdef01234567";
    private static final String ACCOUNT = "acc_0123456789abcdef01234567";
    private static final String POST = "pst_0123456789abcdef01234567";
    private static final String REQUEST = "req_0123456789abcdef01234567";

    private final OpenApiDocument document = OpenApiDocument.fromClasspath(OpenApiDocumentRoute.RESOURCE);

    @Test
    void eachWireTypesPropertiesAreTheSchemasProperties() {
        Map<Class<? extends Record>, String> schemas = Map.ofEntries(
                Map.entry(Profile.class, "Profile"),
                Map.entry(Account.class, "Account"),
                Map.entry(Account.AnalyticsConsent.class, "AnalyticsConsent"),
                Map.entry(ConnectSession.class, "CreatedConnectSession"),
                Map.entry(Post.class, "Post"),
                Map.entry(Post.Media.class, "PostMedia"),
                Map.entry(PostTarget.class, "PostTarget"),
                Map.entry(PostTarget.FirstCommentStatus.class, "FirstCommentStatus"),
                Map.entry(PostValidation.class, "PostValidation"),
                Map.entry(PostSeries.class, "PostSeries"),
                Map.entry(PostSeries.Repeat.class, "PostSeriesRepeatShown"),
                Map.entry(PostValidation.TargetProblems.class, "PostValidationTarget"),
                Map.entry(PostQueue.class, "PostQueue"),
                Map.entry(PostQueue.Slot.class, "QueueSlot"),
                Map.entry(TargetError.class, "TargetError"),
                Map.entry(Comment.class, "Comment"),
                Map.entry(RequestLog.class, "RequestLog"),
                Map.entry(Usage.class, "Usage"),
                Map.entry(Usage.Meter.class, "UsageMeter"),
                Map.entry(UsageThreshold.class, "UsageThreshold"),
                Map.entry(AccountEventData.class, "AccountEventData"),
                Map.entry(WebhookEndpoint.class, "WebhookEndpointWithSecret"),
                Map.entry(WebhookDelivery.class, "Delivery"),
                Map.entry(TikTokPublishingOptions.class, "TikTokPublishingOptions"),
                Map.entry(PinterestBoard.class, "PinterestBoard"),
                Map.entry(PinterestBoardSection.class, "PinterestBoardSection"),
                Map.entry(DeletedResource.class, "DeletedProfile"),
                Map.entry(ListMeta.class, "ListMeta"),
                Map.entry(FieldError.class, "FieldError"),
                Map.entry(ApiError.class, "ApiError"),
                Map.entry(PostBatchItem.class, "PostBatchItem"),
                Map.entry(PostAnalytics.class, "PostAnalytics"),
                Map.entry(PostAnalytics.Target.class, "PostAnalyticsTarget"),
                Map.entry(PostAnalytics.Metrics.class, "PostAnalyticsMetrics"),
                Map.entry(AccountAnalytics.class, "AccountAnalytics"),
                Map.entry(AccountAnalytics.Metrics.class, "AccountAnalyticsMetrics"));
        var snakeCase = new PropertyNamingStrategies.SnakeCaseStrategy();
        schemas.forEach((type, schema) -> {
            Set<String> wire = new TreeSet<>();
            Arrays.stream(type.getRecordComponents())
                    .map(RecordComponent::getName)
                    .map(snakeCase::translate)
                    .forEach(wire::add);
            Set<String> documented = new TreeSet<>();
            document.root()
                    .path("components")
                    .path("schemas")
                    .path(schema)
                    .path("properties")
                    .fieldNames()
                    .forEachRemaining(documented::add);
            assertThat(documented).as(type.getSimpleName() + " vs " + schema).isEqualTo(wire);
        });
    }

    @Test
    void profilesAndTheirDeletionConform() {
        conforms("ProfileEnvelope", DataEnvelope.of(new Profile(PROFILE, "Acme", null, Mode.TEST, T, T)));
        conforms(
                "ProfileList",
                new ListEnvelope<>(
                        List.of(new Profile(PROFILE, "Acme", "crm-42", Mode.LIVE, T, T)),
                        new ListMeta("eyJhIjoxfQ.c2ln", true)));
        conforms("ProfileList", new ListEnvelope<>(List.of(), new ListMeta(null, false)));
        conforms("DeletedProfileEnvelope", DataEnvelope.of(DeletedResource.of(PROFILE, "profile")));
    }

    @Test
    void aProfilesQueueAndItsDeletionConform() {
        conforms(
                "PostQueueEnvelope",
                DataEnvelope.of(new PostQueue(
                        PROFILE,
                        "Europe/Berlin",
                        List.of(new PostQueue.Slot("monday", "09:00"), new PostQueue.Slot("sunday", "23:59")),
                        T)));
        conforms("DeletedPostQueueEnvelope", DataEnvelope.of(DeletedResource.of(PROFILE, "queue")));
    }

    @Test
    void accountsConformWithAndWithoutTheirConsentReceipt() {
        conforms(
                "AccountEnvelope",
                DataEnvelope.of(new Account(
                        ACCOUNT,
                        Platform.LINKEDIN,
                        null,
                        "Acme",
                        "acme",
                        Account.CONNECTED,
                        new AccountHealth(AccountHealth.HEALTHY, null, null, null),
                        Mode.TEST,
                        T,
                        null,
                        T,
                        T,
                        null)));
        conforms(
                "AccountEnvelope",
                DataEnvelope.of(new Account(
                        ACCOUNT,
                        Platform.YOUTUBE,
                        PROFILE,
                        "Acme",
                        "acme",
                        Account.DISCONNECTED,
                        new AccountHealth(AccountHealth.DISCONNECTED, null, T, T),
                        Mode.LIVE,
                        T,
                        T,
                        T,
                        T,
                        new Account.AnalyticsConsent(Account.AnalyticsConsent.ACCEPTED, 2, "2026-01", T))));
        conforms(
                "AccountEnvelope",
                DataEnvelope.of(new Account(
                        ACCOUNT,
                        Platform.YOUTUBE,
                        PROFILE,
                        "Acme",
                        "acme",
                        Account.CONNECTED,
                        new AccountHealth(
                                AccountHealth.REAUTH_REQUIRED, "invalid_grant: Token has been revoked.", T, T),
                        Mode.LIVE,
                        T,
                        null,
                        T,
                        T,
                        new Account.AnalyticsConsent(Account.AnalyticsConsent.REQUIRED, 1, null, null))));
    }

    @Test
    void aBrandingAndItsDeletionConformWithEveryPartSetOrNone() {
        conforms(
                "BrandingEnvelope",
                DataEnvelope.of(new Branding(
                        "Acme Social",
                        "https://acme.example/logo.png",
                        "https://herald.example.com/connect/logos/" + "ab".repeat(32),
                        "#8a1c7c",
                        "https://acme.example/help",
                        "https://acme.example/privacy",
                        T)));
        conforms("BrandingEnvelope", DataEnvelope.of(new Branding(null, null, null, null, null, null, T)));
        conforms(
                "DeletedBrandingEnvelope",
                DataEnvelope.of(DeletedResource.of("ws_0123456789abcdef01234567", "branding")));
    }

    @Test
    void aConnectSessionShowsItsUrlAtCreationOnly() {
        ConnectSession created = new ConnectSession(
                "cs_0123456789abcdef01234567",
                PROFILE,
                Mode.TEST,
                ConnectSession.OPEN,
                List.of(Platform.TIKTOK, Platform.YOUTUBE),
                "https://app.example.com/done",
                null,
                "Acme for Bakeries",
                List.of(ACCOUNT),
                T,
                null,
                null,
                T,
                T,
                "de-AT",
                "https://herald.example.com/connect/abc");
        conforms("CreatedConnectSessionEnvelope", DataEnvelope.of(created));
        conforms("ConnectSessionEnvelope", DataEnvelope.of(created.withoutUrl()));
        // Strict enough to catch a leak: a read that carried the private URL would not conform.
        assertThat(problems("ConnectSessionEnvelope", DataEnvelope.of(created))).isNotEmpty();
    }

    @Test
    void postsConformInEveryShapeTheyTake() {
        ObjectNode options = WIRE.createObjectNode();
        options.putObject("youtube").put("privacy_status", "public").put("made_for_kids", false);
        options.putObject("tiktok").put("privacy_level", "SELF_ONLY").putNull("disable_duet");
        Post queued = queuedPost();
        Post finished = new Post(
                POST,
                "",
                Post.PARTIALLY_FAILED,
                Mode.LIVE,
                PostMedia.single(new Post.Media("https://cdn.example.com/v.mp4", Post.Media.VIDEO)),
                T,
                options,
                null,
                "ser_0123456789abcdef01234567",
                List.of(
                        new PostTarget(
                                ACCOUNT,
                                Platform.YOUTUBE,
                                PROFILE,
                                PostTarget.PUBLISHED,
                                1,
                                "yt_1",
                                "https://youtu.be/1",
                                null,
                                null,
                                T),
                        new PostTarget(
                                "acc_fedcba9876543210fedcba98",
                                Platform.TIKTOK,
                                PROFILE,
                                PostTarget.FAILED,
                                5,
                                null,
                                null,
                                new TargetError(
                                        TargetError.PROVIDER_ERROR,
                                        "TikTok refused the video.",
                                        false,
                                        Map.of("provider_code", "x")),
                                null,
                                T)),
                T,
                T);
        conforms("PostEnvelope", DataEnvelope.of(queued));
        conforms("PostList", new ListEnvelope<>(List.of(finished, queued), new ListMeta(null, false)));
    }

    @Test
    void aCarouselWithFirstCommentStatusesConforms() {
        ObjectNode options = WIRE.createObjectNode();
        options.putObject("instagram").put("format", "feed");
        options.putObject("linkedin").putObject("first_comment").put("text", "Details below");
        options.putObject("facebook").put("format", "feed").putNull("first_comment");
        List<Post.Media> images = List.of(
                new Post.Media("https://cdn.example.com/1.jpg", Post.Media.IMAGE),
                new Post.Media("https://cdn.example.com/2.mp4", Post.Media.VIDEO),
                new Post.Media("https://cdn.example.com/3.jpg", Post.Media.IMAGE));
        Post carousel = new Post(
                POST,
                "Three of a kind #launch",
                Post.PARTIALLY_FAILED,
                Mode.LIVE,
                PostMedia.listed(images),
                null,
                options,
                new Post.FirstComment("Link in bio"),
                null,
                List.of(
                        target(
                                Platform.INSTAGRAM,
                                PostTarget.PUBLISHED,
                                new PostTarget.FirstCommentStatus(
                                        PostTarget.FirstCommentStatus.PUBLISHED, "17890000000000001", null)),
                        target(
                                Platform.FACEBOOK,
                                PostTarget.PUBLISHED,
                                new PostTarget.FirstCommentStatus(
                                        PostTarget.FirstCommentStatus.FAILED,
                                        null,
                                        new TargetError(
                                                        TargetError.PROVIDER_ERROR,
                                                        "Facebook refused the comment.",
                                                        false,
                                                        null)
                                                .as(TargetError.CATEGORY_CONTENT, TargetError.ACTION_EDIT_CONTENT))),
                        target(
                                Platform.LINKEDIN,
                                PostTarget.QUEUED,
                                new PostTarget.FirstCommentStatus(PostTarget.FirstCommentStatus.PENDING, null, null))),
                T,
                T);
        conforms("PostEnvelope", DataEnvelope.of(carousel));
    }

    private static PostTarget target(Platform platform, String status, PostTarget.FirstCommentStatus comment) {
        boolean done = PostTarget.PUBLISHED.equals(status);
        return new PostTarget(
                ACCOUNT,
                platform,
                null,
                status,
                done ? 1 : 0,
                done ? "p1" : null,
                null,
                null,
                comment,
                done ? T : null);
    }

    @Test
    void aPostSeriesConformsActiveWithItsLastErrorAndCanceled() {
        String series = "ser_0123456789abcdef01234567";
        conforms(
                "PostSeriesEnvelope",
                DataEnvelope.of(new PostSeries(
                        series,
                        PostSeries.ACTIVE,
                        Mode.TEST,
                        new PostSeries.Repeat("P7D", null, 4, "Europe/Berlin"),
                        List.of(POST),
                        1,
                        T,
                        new dev.herald.common.api.ApiError(
                                "usage_limit_exceeded", "The publications of this month are used up.", Map.of()),
                        T,
                        T)));
        conforms(
                "PostSeriesEnvelope",
                DataEnvelope.of(new PostSeries(
                        series,
                        PostSeries.CANCELED,
                        Mode.LIVE,
                        new PostSeries.Repeat("P1M", T, null, "UTC"),
                        List.of(POST, "pst_00000000000000000000000a"),
                        2,
                        null,
                        null,
                        T,
                        T)));
    }

    @Test
    void aPostValidationConformsAsValidateAndAsPostsRefusalSayIt() {
        FieldError caption =
                new FieldError("text", "too_long", "text is 2300 characters; Instagram allows at most 2200.");
        PostValidation validation = new PostValidation(
                false,
                List.of(new FieldError("scheduled_at", "invalid_value", "scheduled_at must be at most 1 year ahead.")),
                List.of(
                        new PostValidation.TargetProblems(
                                ACCOUNT,
                                Platform.INSTAGRAM,
                                List.of(
                                        caption,
                                        new FieldError(
                                                "media", "too_long", "Instagram posts take 2 to 10; media has 11."),
                                        new FieldError("text", "too_many_hashtags", "text holds 31 hashtags."))),
                        new PostValidation.TargetProblems(
                                "acc_fedcba9876543210fedcba98",
                                Platform.PINTEREST,
                                List.of(new FieldError(
                                        "first_comment", "not_supported", "Pinterest has no comment API."))),
                        new PostValidation.TargetProblems(
                                "acc_00000000000000000000000a",
                                Platform.LINKEDIN,
                                List.of(new FieldError(
                                        "account_ids[2]", "account_reauth_required", "Reconnect it at https://x."))),
                        new PostValidation.TargetProblems(
                                "nobody",
                                null,
                                List.of(new FieldError(
                                        "account_ids[3]", "invalid_value", "No account nobody exists.")))));
        conforms("PostValidationEnvelope", DataEnvelope.of(validation));
        conforms(
                "PostValidationEnvelope",
                DataEnvelope.of(new PostValidation(
                        true,
                        List.of(),
                        List.of(new PostValidation.TargetProblems(ACCOUNT, Platform.YOUTUBE, List.of())))));
        // A next_slot body's answer names the slot it would take.
        conforms(
                "PostValidationEnvelope",
                DataEnvelope.of(new PostValidation(
                        true,
                        List.of(),
                        List.of(new PostValidation.TargetProblems(ACCOUNT, Platform.LINKEDIN, List.of())),
                        T)));
        ApiException refusal =
                ApiException.validationFailed(List.of(caption)).withDetail("targets", validation.targets());
        conforms("ErrorValidationFailed", new ErrorEnvelope(refusal.toApiError(), REQUEST));
    }

    @Test
    void commentsLogsAndPlatformReadsConform() {
        conforms(
                "CommentEnvelope",
                DataEnvelope.of(new Comment(
                        "cmt_0123456789abcdef01234567",
                        ACCOUNT,
                        POST,
                        Platform.YOUTUBE,
                        null,
                        "Nice!",
                        "Ann",
                        "ann",
                        false,
                        T)));
        conforms(
                "RequestLogList",
                new ListEnvelope<>(
                        List.of(new RequestLog(
                                REQUEST,
                                "OPTIONS",
                                "/api/v1/posts",
                                405,
                                3,
                                "key_0123456789abcdef01234567",
                                Mode.TEST,
                                T)),
                        new ListMeta(null, false)));
        conforms(
                "TikTokPublishingOptionsEnvelope",
                DataEnvelope.of(new TikTokPublishingOptions(
                        "Ann", "ann", null, List.of("PUBLIC_TO_EVERYONE", "SELF_ONLY"), false, false, true, 600)));
        conforms(
                "PinterestBoardList",
                new ListEnvelope<>(
                        List.of(new PinterestBoard("549755885175", "Recipes", null, "PUBLIC")),
                        new ListMeta("eyJhIjoxfQ.c2ln", true)));
        conforms(
                "PinterestBoardSectionList",
                new ListEnvelope<>(List.of(new PinterestBoardSection("4987", "Soups")), new ListMeta(null, false)));
    }

    @Test
    void postAndAccountAnalyticsConformInEveryStatus() {
        ObjectNode raw = WIRE.createObjectNode().put("viewCount", "1085").put("likeCount", "12");
        conforms(
                "PostAnalyticsEnvelope",
                DataEnvelope.of(PostAnalytics.of(
                        POST,
                        List.of(
                                new PostAnalytics.Target(
                                        ACCOUNT,
                                        Platform.YOUTUBE,
                                        "dQw4w9WgXcQ",
                                        PostAnalytics.Target.AVAILABLE,
                                        null,
                                        new PostAnalytics.Metrics(1085L, 12L, 3L, null, null, null),
                                        raw,
                                        T),
                                new PostAnalytics.Target(
                                        ACCOUNT,
                                        Platform.TIKTOK,
                                        null,
                                        PostAnalytics.Target.PENDING,
                                        AnalyticsReason.NOT_PUBLISHED_YET,
                                        null,
                                        null,
                                        null),
                                new PostAnalytics.Target(
                                        ACCOUNT,
                                        Platform.YOUTUBE,
                                        "abc",
                                        PostAnalytics.Target.REDACTED,
                                        AnalyticsReason.CONSENT_REQUIRED,
                                        null,
                                        null,
                                        null),
                                new PostAnalytics.Target(
                                        ACCOUNT,
                                        Platform.LINKEDIN,
                                        "urn:li:share:1",
                                        PostAnalytics.Target.UNAVAILABLE,
                                        AnalyticsReason.PROVIDER_ERROR,
                                        null,
                                        null,
                                        null),
                                new PostAnalytics.Target(
                                        ACCOUNT,
                                        Platform.TIKTOK,
                                        "7311111111111111111",
                                        PostAnalytics.Target.UNAVAILABLE,
                                        AnalyticsReason.RECONNECT_REQUIRED,
                                        null,
                                        null,
                                        null)))));
        conforms(
                "AccountAnalyticsEnvelope",
                DataEnvelope.of(new AccountAnalytics(
                        AccountAnalytics.OBJECT,
                        ACCOUNT,
                        Platform.PINTEREST,
                        PostAnalytics.Target.AVAILABLE,
                        null,
                        new AccountAnalytics.Metrics(2300L, 150L, 410L, 98000L, null),
                        WIRE.createObjectNode().put("follower_count", 2300),
                        T)));
        conforms(
                "AccountAnalyticsEnvelope",
                DataEnvelope.of(new AccountAnalytics(
                        AccountAnalytics.OBJECT,
                        ACCOUNT,
                        Platform.YOUTUBE,
                        PostAnalytics.Target.REDACTED,
                        AnalyticsReason.CONSENT_REQUIRED,
                        null,
                        null,
                        null)));
        conforms(
                "AccountAnalyticsEnvelope",
                DataEnvelope.of(new AccountAnalytics(
                        AccountAnalytics.OBJECT,
                        ACCOUNT,
                        Platform.TIKTOK,
                        PostAnalytics.Target.UNAVAILABLE,
                        AnalyticsReason.RECONNECT_REQUIRED,
                        null,
                        null,
                        null)));
    }

    @Test
    void usageConformsInBothModes() {
        Usage.Meter meter = new Usage.Meter(3, 1, 20, 16, T);
        conforms(
                "UsageEnvelope",
                DataEnvelope.of(new Usage(
                        Mode.TEST,
                        "free",
                        "free",
                        "2026-09",
                        new UsagePeriod(T, T),
                        T,
                        null,
                        new Usage.Accounts(1, 10, 9),
                        meter,
                        meter,
                        null,
                        null,
                        null,
                        new Usage.RateLimit(30),
                        1)));
        conforms(
                "UsageEnvelope",
                DataEnvelope.of(new Usage(
                        Mode.LIVE,
                        "growth",
                        "beta",
                        "2026-09",
                        new UsagePeriod(T, T),
                        T,
                        T,
                        new Usage.Accounts(41, 40, 0),
                        meter,
                        meter,
                        meter,
                        meter,
                        meter,
                        new Usage.RateLimit(120),
                        5)));
    }

    @Test
    void usageThresholdsConformAndTakeOnlyTheirTwoThresholds() {
        conforms("UsageThreshold", new UsageThreshold("publications", 80, 70, 10, 100, new UsagePeriod(T, T)));
        conforms("UsageThreshold", new UsageThreshold("media_bytes", 100, 5, 0, 5, new UsagePeriod(T, T)));
        assertThat(problems(
                        "UsageThreshold", new UsageThreshold("publications", 90, 90, 0, 100, new UsagePeriod(T, T))))
                .isNotEmpty();
    }

    @Test
    void accountEventDataConformsWithAndWithoutItsReconnectUrl() {
        Account account = new Account(
                ACCOUNT,
                Platform.LINKEDIN,
                PROFILE,
                "Acme",
                "acme",
                Account.CONNECTED,
                new AccountHealth(AccountHealth.REAUTH_REQUIRED, "invalid_grant: Token has been revoked.", T, T),
                Mode.LIVE,
                T,
                null,
                T,
                T,
                null);
        conforms(
                "AccountEventData",
                new AccountEventData(account, "https://herald.example.com/connect/reconnect/eyJhIjoxfQ.c2ln"));
        conforms("AccountEventData", new AccountEventData(account, null));
        // The account is the account's schema, not any object.
        assertThat(problems("AccountEventData", Map.of("account", Map.of("id", ACCOUNT))))
                .isNotEmpty();
    }

    @Test
    void webhookEndpointsAndDeliveriesConform() {
        WebhookEndpoint endpoint = new WebhookEndpoint(
                "whe_0123456789abcdef01234567",
                WebhookEndpoint.PUSH,
                "https://example.com/hooks",
                null,
                WebhookEventTypes.SUBSCRIBABLE,
                WebhookEndpoint.ENABLED,
                null,
                Mode.TEST,
                T,
                T,
                null,
                null);
        conforms("WebhookEndpointEnvelope", DataEnvelope.of(endpoint));
        WebhookEndpoint pull = new WebhookEndpoint(
                "whe_0123456789abcdef01234568",
                WebhookEndpoint.PULL,
                null,
                "herald listen",
                List.of(WebhookEventTypes.SUBSCRIBABLE.get(0)),
                WebhookEndpoint.ENABLED,
                null,
                Mode.TEST,
                T,
                T,
                null,
                null);
        conforms(
                "WebhookEndpointWithSecretEnvelope", DataEnvelope.of(pull.withSecret("whsec_" + "B".repeat(43) + "=")));
        conforms(
                "WebhookEndpointWithSecretEnvelope",
                DataEnvelope.of(endpoint.withSecret("whsec_" + "A".repeat(43) + "=")));
        conforms(
                "DeliveryList",
                new ListEnvelope<>(
                        List.of(new WebhookDelivery(
                                "dlv_0123456789abcdef01234567",
                                "evt_0123456789abcdef01234567",
                                WebhookEventTypes.TEST,
                                endpoint.id(),
                                WebhookDelivery.FAILED,
                                2,
                                500,
                                "The receiver answered 500.",
                                "oops",
                                null,
                                T,
                                T,
                                null)),
                        new ListMeta(null, false)));
    }

    @Test
    void errorsConformToTheirCodesSchema() {
        ApiException invalid = ApiException.validationFailed(List.of(
                new FieldError("account_ids[0]", "invalid_value", "No account."),
                new FieldError("platform_options.tiktok.privacy_level", "required", "privacy_level is required.")));
        conforms("ErrorValidationFailed", new ErrorEnvelope(invalid.toApiError(), REQUEST));
        conforms(
                "ErrorInvalidRequest",
                new ErrorEnvelope(
                        ApiException.invalidParameter("limit", "limit must be 1 to 100.")
                                .toApiError(),
                        REQUEST));
        conforms(
                "ErrorInvalidRequest",
                new ErrorEnvelope(
                        ApiException.invalidRequest("The request body is not valid JSON.")
                                .toApiError(),
                        REQUEST));
        conforms(
                "ErrorNotFound", new ErrorEnvelope(ApiException.notFound("post").toApiError(), REQUEST));
        conforms(
                "ErrorPostNotCancelable",
                new ErrorEnvelope(
                        new ApiError(ErrorCode.POST_NOT_CANCELABLE.code(), "No.", Map.of("status", Post.PUBLISHED)),
                        REQUEST));
        conforms(
                "ErrorEnvelope", new ErrorEnvelope(ApiException.notFound("post").toApiError(), REQUEST));
        // Each code's schema takes that code only.
        assertThat(problems("ErrorNotFound", new ErrorEnvelope(invalid.toApiError(), REQUEST)))
                .isNotEmpty();
    }

    @Test
    void everyErrorCodeOfTheCatalogueHasItsSchemaWithTheRightStatus() {
        for (ErrorCode code : ErrorCode.values()) {
            if (code == ErrorCode.METHOD_NOT_ALLOWED
                    || code == ErrorCode.CONNECT_SESSION_EXPIRED
                    || code == ErrorCode.CONNECT_SESSION_REVOKED) {
                continue; // not an answer of a documented operation: wrong method, and the hosted pages
            }
            String name = "Error"
                    + Arrays.stream(code.code().split("_"))
                            .map(part -> Character.toUpperCase(part.charAt(0)) + part.substring(1))
                            .reduce("", String::concat);
            JsonNode schema = document.root().path("components").path("schemas").path(name);
            assertThat(schema.at("/properties/error/properties/code/const").asText())
                    .as(name)
                    .isEqualTo(code.code());
            assertThat(schema.path("description").asText()).as(name).startsWith("HTTP " + code.httpStatus() + " ");
            // A batch's item carries any of them in its error.
            assertThat(document.root().at("/components/schemas/ApiError/properties/code/enum"))
                    .as(name + " in ApiError")
                    .extracting(JsonNode::asText)
                    .contains(code.code());
        }
    }

    @Test
    void aBatchsAnswerConformsWithPostsAndErrors() {
        Post post = queuedPost();
        conforms(
                "PostBatchEnvelope",
                DataEnvelope.of(List.of(
                        new PostBatchItem(0, 202, WIRE.valueToTree(post), null),
                        new PostBatchItem(1, 200, WIRE.valueToTree(post), null),
                        new PostBatchItem(
                                2,
                                422,
                                null,
                                ApiException.validationFailed(List.of(new FieldError("text", "too_long", "Long.")))
                                        .toApiError()),
                        new PostBatchItem(
                                3,
                                422,
                                null,
                                new ApiError(ErrorCode.ACCOUNT_REAUTH_REQUIRED.code(), "Reconnect.", Map.of())))));
        // An item has its post or its error, not neither.
        assertThat(problems("PostBatchEnvelope", DataEnvelope.of(List.of(new PostBatchItem(0, 202, null, null)))))
                .isNotEmpty();
    }

    /** A text post just accepted, to one LinkedIn account. */
    private static Post queuedPost() {
        return new Post(
                POST,
                "Hello",
                Post.QUEUED,
                Mode.TEST,
                null,
                null,
                WIRE.createObjectNode(),
                null,
                null,
                List.of(new PostTarget(
                        ACCOUNT, Platform.LINKEDIN, null, PostTarget.QUEUED, 0, null, null, null, null, null)),
                T,
                T);
    }

    private void conforms(String schema, Object value) {
        assertThat(problems(schema, value))
                .as(schema + " " + WIRE.valueToTree(value))
                .isEmpty();
    }

    private List<String> problems(String schema, Object value) {
        JsonNode json = WIRE.valueToTree(value);
        return OpenApiDocument.problems(document.component(schema), json);
    }
}
