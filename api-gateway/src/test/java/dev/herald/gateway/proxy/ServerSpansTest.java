package dev.herald.gateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.semconv.HttpAttributes;
import io.opentelemetry.semconv.UrlAttributes;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway's server spans on a real Vert.x server, recorded by an OpenTelemetry SDK that samples everything (the
 * gateway's own sampler records almost none, so what a recorded span carries is shown here).
 */
class ServerSpansTest {
    private static final String CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    private final List<SpanData> exported = new CopyOnWriteArrayList<>();
    private Vertx vertx;
    private HttpServer server;
    private SdkTracerProvider tracerProvider;

    @BeforeEach
    void start() throws Exception {
        tracerProvider = SdkTracerProvider.builder()
                .setSampler(Sampler.alwaysOn())
                .addSpanProcessor(SimpleSpanProcessor.create(new CollectingExporter()))
                .build();
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(tracerProvider)
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        new ServerSpans(sdk).register(router);
        router.route("/api/v1/profiles/:id").handler(rc -> {
            MetricsRouteNames.name(rc, "/api/v1/profiles/{id}");
            rc.response()
                    .setStatusCode(Integer.parseInt(rc.request().getParam("status", "200")))
                    .end("{}");
        });
        server = vertx.createHttpServer()
                .requestHandler(router)
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        tracerProvider.close();
    }

    @Test
    void aRecordedSpanIsNamedByItsRouteAndCarriesTheRequestAndItsAnswer() throws Exception {
        assertThat(get("/api/v1/profiles/prof_1", null)).isEqualTo(200);

        SpanData span = onlySpan();
        assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(span.getName()).isEqualTo("GET /api/v1/profiles/{id}");
        assertThat(span.getAttributes().get(HttpAttributes.HTTP_REQUEST_METHOD)).isEqualTo("GET");
        assertThat(span.getAttributes().get(UrlAttributes.URL_PATH)).isEqualTo("/api/v1/profiles/prof_1");
        assertThat(span.getAttributes().get(HttpAttributes.HTTP_ROUTE)).isEqualTo("/api/v1/profiles/{id}");
        assertThat(span.getAttributes().get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE))
                .isEqualTo(200L);
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(span.getParentSpanContext().isValid())
                .as("a trace of its own")
                .isFalse();
    }

    @Test
    void aServerErrorMarksTheSpanFailed() throws Exception {
        assertThat(get("/api/v1/profiles/prof_1?status=503", null)).isEqualTo(503);

        SpanData span = onlySpan();
        assertThat(span.getAttributes().get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE))
                .isEqualTo(503L);
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    }

    @Test
    void aClientsTraceparentContinuesItsTrace() throws Exception {
        get("/api/v1/profiles/prof_1", "00-" + CLIENT_TRACE + "-00f067aa0ba902b7-00");

        SpanData span = onlySpan();
        assertThat(span.getTraceId()).isEqualTo(CLIENT_TRACE);
        assertThat(span.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
    }

    /** Ended exactly once: the SDK exports a span when it ends. */
    private SpanData onlySpan() throws InterruptedException {
        for (int i = 0; i < 100 && exported.isEmpty(); i++) {
            Thread.sleep(20);
        }
        Thread.sleep(50);
        assertThat(exported).hasSize(1);
        return exported.get(0);
    }

    private int get(String path, String traceParent) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path));
        if (traceParent != null) {
            request.header("traceparent", traceParent);
        }
        return HttpClient.newHttpClient()
                .send(request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private final class CollectingExporter implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            exported.addAll(spans);
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
