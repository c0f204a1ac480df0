/**
 * Herald's services as the others call them: one client per internal service ({@link UsageClient},
 * {@link AccountsClient}, {@link ProfilesClient}, {@link PostsClient}), shared by every caller; a caller uses the
 * methods it needs. Each is a bean of this archive over a REST client interface ({@code *ServiceApi}) that the calling
 * service configures with its own {@code quarkus.rest-client.<service>.*} keys (url, connect and read timeouts). Calls
 * carry an {@link InternalBearer} for the tenant they are about; answers are read with {@link UpstreamResponses}; a
 * service that cannot answer is an {@link UpstreamUnavailable}.
 *
 * <p>Every service discovers these beans, also the ones that call no other service and have no
 * {@code quarkus-rest-client} (profiles-, usage-, webhooks-service): there no {@code *ServiceApi} has a bean, and a
 * client that injected one directly would fail their deployment even though it is unused (and removed). So each
 * client takes its REST client as an {@code @RestClient Instance<...>}, which CDI does not need to resolve at
 * deployment, and gets it when it is created, which only a service that uses it does.
 *
 * <p>Fault tolerance, one set per client (MicroProfile Fault Tolerance, per method):
 *
 * <ul>
 *   <li>every call is bounded by the client's {@code @Timeout} and retried twice, 100 ms apart, on
 *       {@link UpstreamUnavailable}: the calls are reads or writes keyed by the caller's ids, so a repeat never
 *       counts twice. A timeout is not retried: the service may still be working on the call, and the breaker counts
 *       it;
 *   <li>the calls a caller waits on to go ahead (reads, reservations, holds) also have a circuit breaker: while half
 *       of the last 10 attempts failed (timeouts and {@link UpstreamUnavailable}s), they fail at once for 5 s
 *       (MicroProfile's default), so a request is answered 503 instead of waiting out every timeout. 10 is the window
 *       most callers had (posts-service had 20): a narrow window also forgets an outage sooner, where a wide one, once
 *       it fills, can still open on the failures of an outage that has ended (a delivery test met exactly that);
 *   <li>settlements (releases, consumes, disconnects) give back or count what a caller already took. A lost one keeps
 *       units, a slot or a hold taken until something repairs it, so they have no breaker and are retried three
 *       times, 200 ms apart, as accounts- and posts-service had them (delivery-worker's were retried twice).
 * </ul>
 *
 * A refusal the caller must see (a limit, a conflict) is never retried and never opens a breaker.
 */
package dev.herald.common.client;
