package dev.herald.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.herald.common.wire.WebhookDelivery;
import dev.herald.common.wire.WebhookEndpoint;
import dev.herald.common.wire.WebhookEventTypes;
import dev.herald.gateway.client.ApiAnswer;
import dev.herald.gateway.client.MemberApiClient;
import dev.herald.gateway.service.DashboardAccess;
import dev.herald.gateway.service.DashboardCaller;
import dev.herald.gateway.service.DashboardRefusal;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Webhook endpoints of a workspace and mode: list, register (the secret shown once), and each endpoint's page with
 * its settings, the form changing its description and events, and its deliveries. The one-off actions (rotate the
 * secret, send a test event, disable, retry a delivery) are {@link DashboardWebhookActionsResource}'s. Everything goes
 * through the public API's operations ({@link MemberApiClient}), so the service's own validation speaks on the form.
 */
@Path("/dashboard/w/{workspace}/{mode}/webhooks")
@Produces(MediaType.TEXT_HTML)
public class DashboardWebhooksResource {
    static final String PAGE_SIZE = "20";

    /** What a form was sent with, and what was wrong with it (field name to message). */
    public record EndpointForm(String url, String description, Set<String> events, Map<String, String> errors) {
        static EndpointForm empty() {
            return new EndpointForm("", "", new LinkedHashSet<>(), Map.of());
        }

        /** The body fields the create and edit forms share: an empty description is none. */
        Map<String, Object> changes() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("description", description.isEmpty() ? null : description);
            body.put("events", List.copyOf(events));
            return body;
        }

        static EndpointForm of(WebhookEndpoint endpoint) {
            return new EndpointForm(
                    endpoint.url(),
                    endpoint.description() == null ? "" : endpoint.description(),
                    new LinkedHashSet<>(endpoint.events()),
                    Map.of());
        }
    }

    /** One page of a list and the cursor of the next (older) one, null on the last. */
    record Listed<T>(List<T> items, String olderCursor) {}

    @CheckedTemplate(basePath = "dashboard/webhooks")
    static class Templates {
        static native TemplateInstance list(
                DashboardCaller caller,
                String section,
                List<WebhookEndpoint> endpoints,
                String olderCursor,
                List<String> allEvents,
                boolean manages,
                EndpointForm form,
                WebhookEndpoint created,
                String notice);

        static native TemplateInstance detail(
                DashboardCaller caller,
                String section,
                WebhookEndpoint endpoint,
                List<WebhookDelivery> deliveries,
                String olderCursor,
                List<String> allEvents,
                boolean manages,
                EndpointForm form,
                String notice);
    }

    private final DashboardAccess access;
    private final DashboardResponses responses;
    private final MemberApiClient api;
    private final ObjectMapper mapper;

    public DashboardWebhooksResource(
            DashboardAccess access, DashboardResponses responses, MemberApiClient api, ObjectMapper mapper) {
        this.access = access;
        this.responses = responses;
        this.api = api;
        this.mapper = mapper;
    }

    @GET
    public Uni<Response> list(
            @BeanParam WorkspacePage requested,
            @QueryParam("cursor") String cursor,
            @QueryParam("disabled") String disabled) {
        String notice = disabled == null ? null : "Endpoint " + disabled + " was disabled: it receives nothing new.";
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> renderList(caller, cursor, EndpointForm.empty(), null, notice)));
    }

    @POST
    public Uni<Response> create(
            @BeanParam WorkspacePage requested,
            @FormParam("csrf") String csrf,
            @FormParam("url") String url,
            @FormParam("description") String description,
            @FormParam("event") List<String> events) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    requireManager(caller);
                    EndpointForm sent = sent(url, description, events);
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("url", sent.url());
                    body.putAll(sent.changes());
                    return api.send(caller, "POST", "/webhooks", body).flatMap(answer -> {
                        if (answer.status() == 422) {
                            return renderList(caller, null, withErrors(sent, answer), null, null)
                                    .map(page -> DashboardResponses.page(422, page));
                        }
                        WebhookEndpoint created = read(answer, WebhookEndpoint.class);
                        return renderList(caller, null, EndpointForm.empty(), created, null)
                                .map(page -> DashboardResponses.page(201, page));
                    });
                }));
    }

    @GET
    @Path("/{endpoint}")
    public Uni<Response> detail(
            @BeanParam WorkspacePage requested,
            @PathParam("endpoint") String endpointId,
            @QueryParam("cursor") String cursor,
            @QueryParam("notice") String notice) {
        return responses.page(access.open(requested.session, requested.workspace, requested.mode)
                .flatMap(caller -> endpoint(caller, endpointId)
                        .flatMap(endpoint ->
                                renderDetail(caller, endpoint, cursor, EndpointForm.of(endpoint), notices(notice)))));
    }

    /** The edit form: PATCH /webhooks/{id} with its description and events. */
    @POST
    @Path("/{endpoint}")
    public Uni<Response> change(
            @BeanParam WorkspacePage requested,
            @PathParam("endpoint") String endpointId,
            @FormParam("csrf") String csrf,
            @FormParam("description") String description,
            @FormParam("event") List<String> events) {
        return responses.respond(access.openForChange(requested.session, requested.workspace, requested.mode, csrf)
                .flatMap(caller -> {
                    requireManager(caller);
                    EndpointForm sent = sent(null, description, events);
                    return api.send(caller, "PATCH", "/webhooks/" + endpointId, sent.changes())
                            .flatMap(answer -> {
                                if (answer.status() != 422) {
                                    read(answer, WebhookEndpoint.class);
                                    return Uni.createFrom()
                                            .item(DashboardResponses.seeOther(
                                                    caller.base() + "/webhooks/" + endpointId + "?notice=changed"));
                                }
                                return endpoint(caller, endpointId)
                                        .flatMap(endpoint ->
                                                renderDetail(caller, endpoint, null, withErrors(sent, answer), null))
                                        .map(page -> DashboardResponses.page(422, page));
                            });
                }));
    }

    Uni<WebhookEndpoint> endpoint(DashboardCaller caller, String endpointId) {
        return api.get(caller, "/webhooks/" + endpointId, Map.of()).map(answer -> read(answer, WebhookEndpoint.class));
    }

    private Uni<TemplateInstance> renderList(
            DashboardCaller caller, String cursor, EndpointForm form, WebhookEndpoint created, String notice) {
        return api.get(caller, "/webhooks", Map.of("limit", PAGE_SIZE, "cursor", cursor == null ? "" : cursor))
                .map(answer -> listed(answer, WebhookEndpoint.class))
                .map(endpoints -> Templates.list(
                        caller,
                        "webhooks",
                        endpoints.items(),
                        endpoints.olderCursor(),
                        WebhookEventTypes.SUBSCRIBABLE,
                        manages(caller),
                        form,
                        created,
                        notice));
    }

    Uni<TemplateInstance> renderDetail(
            DashboardCaller caller, WebhookEndpoint endpoint, String cursor, EndpointForm form, String notice) {
        Map<String, String> query =
                Map.of("endpoint_id", endpoint.id(), "limit", PAGE_SIZE, "cursor", cursor == null ? "" : cursor);
        return api.get(caller, "/deliveries", query)
                .map(answer -> listed(answer, WebhookDelivery.class))
                .map(deliveries -> Templates.detail(
                        caller,
                        "webhooks",
                        endpoint,
                        deliveries.items(),
                        deliveries.olderCursor(),
                        WebhookEventTypes.SUBSCRIBABLE,
                        manages(caller),
                        form,
                        notice));
    }

    boolean manages(DashboardCaller caller) {
        return api.allows(caller, "POST", "/webhooks");
    }

    void requireManager(DashboardCaller caller) {
        if (!manages(caller)) {
            throw DashboardRefusal.forbidden(
                    "Your role (" + caller.role().wireName() + ") can see webhooks but not change them. Ask an owner.");
        }
    }

    /** A success's {@code data} as {@code type}; any other answer becomes the refusal page it stands for. */
    <T> T read(ApiAnswer answer, Class<T> type) {
        if (!answer.ok()) {
            throw refusal(answer);
        }
        return mapper.convertValue(answer.data(), type);
    }

    private <T> Listed<T> listed(ApiAnswer answer, Class<T> type) {
        if (!answer.ok()) {
            throw refusal(answer);
        }
        List<T> items = new ArrayList<>();
        for (JsonNode item : answer.data()) {
            items.add(mapper.convertValue(item, type));
        }
        JsonNode next = answer.body().path("meta").path("next_cursor");
        return new Listed<>(items, next.isTextual() ? next.asText() : null);
    }

    static DashboardRefusal refusal(ApiAnswer answer) {
        if (answer.status() == 404) {
            return DashboardRefusal.notFound();
        }
        if (answer.status() >= 500) {
            return DashboardRefusal.unavailable();
        }
        return new DashboardRefusal(answer.status(), "Not done", answer.errorMessage(), Map.of());
    }

    /** The form as sent, trimmed; {@code events[2]}-style messages of the service are shown beside the events. */
    private static EndpointForm sent(String url, String description, List<String> events) {
        return new EndpointForm(
                url == null ? "" : url.strip(),
                description == null ? "" : description.strip(),
                new LinkedHashSet<>(events == null ? List.of() : events),
                Map.of());
    }

    private static EndpointForm withErrors(EndpointForm sent, ApiAnswer answer) {
        Map<String, String> errors = new LinkedHashMap<>();
        answer.fieldErrors()
                .forEach((field, message) -> errors.putIfAbsent(field.replaceAll("\\[\\d+]$", ""), message));
        if (errors.isEmpty()) {
            errors.put("form", answer.errorMessage());
        }
        return new EndpointForm(sent.url(), sent.description(), sent.events(), errors);
    }

    private static String notices(String notice) {
        if (notice == null) {
            return null;
        }
        return switch (notice) {
            case "changed" -> "Settings saved.";
            case "tested" -> "A webhook.test event is on its way: its delivery is listed below (reload to follow it).";
            case "retried" -> "The delivery is being attempted again.";
            default -> null;
        };
    }
}
