import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;

/**
 * Phase 4 of bench/gateway-overhead.sh: the least an HTTP hop in front of profiles-service can cost on this
 * machine. Vert.x core only, with the same Vert.x and Netty jars the gateway runs on (the script compiles this
 * against the measured build's api-gateway/target/quarkus-app/lib/main): no router, no authentication, no
 * admission, no request log, no tracing, no metrics. It forwards the caller's Authorization header (the bench's
 * internal JWT) and the path over keep-alive connections and pipes the answer back, as ServiceProxy does. Its
 * throughput against direct is the ceiling for any gateway that proxies over HTTP here.
 *
 * Usage: java -cp <vertx and netty jars>:. BareProxy LISTEN_PORT TARGET_PORT
 */
public class BareProxy extends AbstractVerticle {
    /** As many event loops as a Quarkus service gets on this machine (two per core). */
    private static final int EVENT_LOOPS = 2 * Runtime.getRuntime().availableProcessors();

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int target = Integer.parseInt(args[1]);
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(EVENT_LOOPS));
        vertx.deployVerticle(() -> new BareProxy(port, target), new DeploymentOptions().setInstances(EVENT_LOOPS))
                .onSuccess(id -> System.out.println("bare proxy listening on 127.0.0.1:" + port + ", forwarding to 127.0.0.1:" + target))
                .onFailure(failure -> {
                    failure.printStackTrace();
                    System.exit(1);
                });
    }

    private final int port;
    private final int target;

    BareProxy(int port, int target) {
        this.port = port;
        this.target = target;
    }

    @Override
    public void start(Promise<Void> started) {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setMaxPoolSize(64));
        vertx.createHttpServer().requestHandler(request -> {
            RequestOptions options = new RequestOptions().setMethod(request.method()).setHost("127.0.0.1").setPort(target)
                    .setURI(request.uri());
            String authorization = request.getHeader("authorization");
            if (authorization != null) {
                options.putHeader("authorization", authorization);
            }
            client.request(options).compose(HttpClientRequest::send).onSuccess(response -> {
                HttpServerResponse out = request.response().setStatusCode(response.statusCode());
                response.headers().forEach(header -> {
                    String name = header.getKey().toLowerCase();
                    if (!name.equals("connection") && !name.equals("keep-alive")) {
                        out.headers().add(header.getKey(), header.getValue());
                    }
                });
                response.pipeTo(out);
            }).onFailure(failure -> request.response().setStatusCode(503).end());
        }).listen(port, "127.0.0.1").<Void>mapEmpty().onComplete(started);
    }
}
