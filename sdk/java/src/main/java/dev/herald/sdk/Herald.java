package dev.herald.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.sdk.generated.ApiClient;
import dev.herald.sdk.generated.ApiException;
import dev.herald.sdk.generated.api.AccountsApi;
import dev.herald.sdk.generated.api.CommentsApi;
import dev.herald.sdk.generated.api.ConnectSessionsApi;
import dev.herald.sdk.generated.api.LogsApi;
import dev.herald.sdk.generated.api.PostsApi;
import dev.herald.sdk.generated.api.ProfilesApi;
import dev.herald.sdk.generated.api.UsageApi;
import dev.herald.sdk.generated.api.WebhooksApi;
import dev.herald.sdk.generated.model.CreatePostRequest;
import dev.herald.sdk.generated.model.PostBatchEnvelope;
import dev.herald.sdk.generated.model.PostBatchRequest;
import dev.herald.sdk.generated.model.PostBatchRequestItem;
import dev.herald.sdk.generated.model.PostEnvelope;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * The Herald API for Java: the API classes generated from Herald's OpenAPI document ({@code dev.herald.sdk.generated},
 * one per tag), set up with what generation cannot give. Every request carries the API key; {@code 429} and
 * {@code 503} answers are retried as {@link RetryPolicy} says; an error answer is thrown as a
 * {@link HeraldApiException} subclass by its {@code error.code}; {@link #createPost} and {@link #createPostBatch} fill
 * in idempotency keys; {@link Pages} iterates a list; {@link WebhookVerifier} checks a webhook delivery.
 *
 * <pre>{@code
 * Herald herald = Herald.builder().baseUrl("https://herald.example.com/api/v1").apiKey(System.getenv("HERALD_API_KEY")).build();
 * Post post = herald.createPost(new CreatePostRequest().text("Hello").addAccountIdsItem("acc_...")).getData();
 * }</pre>
 */
public final class Herald {
    private final ApiClient apiClient;
    private final ProfilesApi profiles;
    private final AccountsApi accounts;
    private final ConnectSessionsApi connectSessions;
    private final PostsApi posts;
    private final CommentsApi comments;
    private final WebhooksApi webhooks;
    private final LogsApi logs;
    private final UsageApi usage;

    private Herald(ApiClient apiClient) {
        this.apiClient = apiClient;
        profiles = new ProfilesApi(apiClient);
        accounts = new AccountsApi(apiClient);
        connectSessions = new ConnectSessionsApi(apiClient);
        posts = new PostsApi(apiClient);
        comments = new CommentsApi(apiClient);
        webhooks = new WebhooksApi(apiClient);
        logs = new LogsApi(apiClient);
        usage = new UsageApi(apiClient);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * {@code POST /posts} with a new random {@code Idempotency-Key}: the retries of this call send the same key, so a
     * post is never created twice by them. To retry across calls (after a crash, say), keep a key of your own and call
     * {@code posts().createPost(key, request)}.
     */
    public PostEnvelope createPost(CreatePostRequest request) throws ApiException {
        return posts.createPost(UUID.randomUUID().toString(), request);
    }

    /** {@code POST /posts/batch}, giving every post that has none a new random {@code idempotency_key}. */
    public PostBatchEnvelope createPostBatch(PostBatchRequest batch) throws ApiException {
        for (PostBatchRequestItem item : batch.getPosts()) {
            if (item.getIdempotencyKey() == null) {
                item.setIdempotencyKey(UUID.randomUUID().toString());
            }
        }
        return posts.createPostBatch(batch);
    }

    public ProfilesApi profiles() {
        return profiles;
    }

    public AccountsApi accounts() {
        return accounts;
    }

    public ConnectSessionsApi connectSessions() {
        return connectSessions;
    }

    public PostsApi posts() {
        return posts;
    }

    public CommentsApi comments() {
        return comments;
    }

    public WebhooksApi webhooks() {
        return webhooks;
    }

    public LogsApi logs() {
        return logs;
    }

    public UsageApi usage() {
        return usage;
    }

    /** The configured generated client, for an API class made by hand ({@code new PostsApi(herald.apiClient())}). */
    public ApiClient apiClient() {
        return apiClient;
    }

    public static final class Builder {
        private String baseUrl;
        private String apiKey;
        private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
        private HttpClient.Builder httpClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
        private Duration requestTimeout = Duration.ofSeconds(60);
        private Clock clock = Clock.systemUTC();

        private Builder() {}

        /** The API's base URL, e.g. {@code https://herald.example.com/api/v1} ({@code /api/v1} is added if absent). */
        public Builder baseUrl(String baseUrl) {
            String trimmed = baseUrl.replaceAll("/+$", "");
            this.baseUrl = URI.create(trimmed).getRawPath().isEmpty() ? trimmed + "/api/v1" : trimmed;
            return this;
        }

        /** An API key ({@code sk_test_...} or {@code sk_live_...}) or an OAuth access token. */
        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        public Builder retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = Objects.requireNonNull(retryPolicy);
            return this;
        }

        /** The JDK client's settings (proxy, TLS, connect timeout). */
        public Builder httpClient(HttpClient.Builder httpClient) {
            this.httpClient = Objects.requireNonNull(httpClient);
            return this;
        }

        /** How long one attempt may wait for its answer (60 s by default). */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = Objects.requireNonNull(requestTimeout);
            return this;
        }

        Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public Herald build() {
            Objects.requireNonNull(baseUrl, "baseUrl");
            Objects.requireNonNull(apiKey, "apiKey");
            HttpClient retrying = new RetryingHttpClient(httpClient.build(), retryPolicy, clock);
            ApiClient client = new ApiClient() {
                // The generated API classes take their client from here once, when they are made.
                @Override
                public HttpClient getHttpClient() {
                    return retrying;
                }
            };
            client.updateBaseUri(baseUrl);
            client.setReadTimeout(requestTimeout);
            String authorization = "Bearer " + apiKey;
            client.setRequestInterceptor(request ->
                    request.setHeader("Authorization", authorization).setHeader("User-Agent", "herald-sdk-java"));
            ObjectMapper mapper = client.getObjectMapper();
            Clock errorClock = clock;
            client.setResponseInterceptor(response -> throwIfError(response, mapper, errorClock));
            return new Herald(client);
        }

        private static void throwIfError(HttpResponse<InputStream> response, ObjectMapper mapper, Clock clock) {
            if (response.statusCode() / 100 == 2) {
                return;
            }
            JsonNode body;
            try (InputStream in = response.body()) {
                body = in == null ? null : mapper.readTree(in);
            } catch (IOException e) {
                body = null; // not JSON (a proxy's page, say): the error is then known by its status only
            }
            Duration retryAfter = RetryPolicy.retryAfter(
                            response.headers().firstValue("Retry-After").orElse(null), clock)
                    .orElse(null);
            throw HeraldApiException.of(response.statusCode(), body, retryAfter);
        }
    }
}
