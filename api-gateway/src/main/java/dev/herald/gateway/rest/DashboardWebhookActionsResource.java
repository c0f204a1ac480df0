package dev.herald.gateway.rest;

import dev.herald.common.wire.WebhookDelivery;
import dev.herald.common.wire.WebhookEndpoint;
import dev.herald.gateway.client.MemberApiClient;
import dev.herald.gateway.service.DashboardAccess;
import dev.herald.gateway.service.DashboardCaller;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The one-off actions on a webhook endpoint's page: rotate its secret (confirmation first; the new secret shown once),
 * send a test event, disable it (confirmation first), and retry a failed delivery.
 */
@Path("/dashboard/w/{workspace}/{mode}/webhooks/{endpoint}")
@Produces(MediaType.TEXT_HTML)
public class DashboardWebhookActionsResource {

    @CheckedTemplate(basePath = "dashboard/webhooks")
    static class Templates {
        static native TemplateInstance rotate(DashboardCaller caller, String section, WebhookEndpoint endpoint);

        static native TemplateInstance rotated(
                DashboardCaller caller, String section, WebhookEndpoint endpoint, String secret);

        static native TemplateInstance disable(DashboardCaller caller, String section, WebhookEndpoint endpoint);
    }

    private final DashboardAccess access;
    private final DashboardResponses responses;
    private final MemberApiClient api;
    private final DashboardWebhooksResource pages;

    public DashboardWebhookActionsResource(
            DashboardAccess access,
            DashboardResponses responses,
            MemberApiClient api,
            DashboardWebhooksResource pages) {
        this.access = access;
        this.responses = responses;
        this.api = api;
        this.pages = pages;
    }

    @GET
    @Path("/rotate-secret")
    public Uni<Response> confirmRotate(@BeanParam WorkspacePage requested, @PathParam("endpoint") String endpointId) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> {
                    pages.requireManager(caller);
                    return pages.endpoint(caller, endpointId)
                            .map(endpoint -> Templates.rotate(caller, "webhooks", endpoint));
                }));
    }

    @POST
    @Path("/rotate-secret")
    public Uni<Response> rotate(
            @BeanParam WorkspacePage requested,
            @PathParam("endpoint") String endpointId,
            @FormParam("csrf") String csrf) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    pages.requireManager(caller);
                    return api.send(caller, "POST", "/webhooks/" + endpointId + "/rotate-secret", null)
                            .map(answer -> pages.read(answer, WebhookEndpoint.class))
                            .map(endpoint -> DashboardResponses.page(
                                    201, Templates.rotated(caller, "webhooks", endpoint, endpoint.secret())));
                }));
    }

    @POST
    @Path("/test")
    public Uni<Response> sendTest(
            @BeanParam WorkspacePage requested,
            @PathParam("endpoint") String endpointId,
            @FormParam("csrf") String csrf) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    pages.requireManager(caller);
                    return api.send(caller, "POST", "/webhooks/" + endpointId + "/test", null)
                            .map(answer -> pages.read(answer, WebhookDelivery.class))
                            .map(delivery -> backTo(caller, endpointId, "tested"));
                }));
    }

    @GET
    @Path("/disable")
    public Uni<Response> confirmDisable(@BeanParam WorkspacePage requested, @PathParam("endpoint") String endpointId) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> {
                    pages.requireManager(caller);
                    return pages.endpoint(caller, endpointId)
                            .map(endpoint -> Templates.disable(caller, "webhooks", endpoint));
                }));
    }

    @POST
    @Path("/disable")
    public Uni<Response> disable(
            @BeanParam WorkspacePage requested,
            @PathParam("endpoint") String endpointId,
            @FormParam("csrf") String csrf) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    pages.requireManager(caller);
                    return api.send(caller, "DELETE", "/webhooks/" + endpointId, null)
                            .map(answer -> pages.read(answer, WebhookEndpoint.class))
                            .map(endpoint ->
                                    DashboardResponses.seeOther(caller.base() + "/webhooks?disabled=" + endpoint.id()));
                }));
    }

    @POST
    @Path("/deliveries/{delivery}/retry")
    public Uni<Response> retry(
            @BeanParam WorkspacePage requested,
            @PathParam("endpoint") String endpointId,
            @PathParam("delivery") String deliveryId,
            @FormParam("csrf") String csrf) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    pages.requireManager(caller);
                    return api.send(caller, "POST", "/deliveries/" + deliveryId + "/retry", null)
                            .map(answer -> pages.read(answer, WebhookDelivery.class))
                            .map(delivery -> backTo(caller, endpointId, "retried"));
                }));
    }

    private static Response backTo(DashboardCaller caller, String endpointId, String notice) {
        return DashboardResponses.seeOther(caller.base() + "/webhooks/" + endpointId + "?notice=" + notice);
    }
}
