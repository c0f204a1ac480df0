package dev.herald.gateway.service;

import java.util.Map;

/**
 * Why a dashboard page is not shown: rendered as an HTML page with its status (never the API's JSON envelope), or
 * for {@link #signIn()} a redirect to the sign-in page.
 */
public class DashboardRefusal extends RuntimeException {
    private final int status;
    private final String title;
    private final Map<String, String> headers;

    public DashboardRefusal(int status, String title, String message, Map<String, String> headers) {
        super(message, null, false, false);
        this.status = status;
        this.title = title;
        this.headers = Map.copyOf(headers);
    }

    public static DashboardRefusal signIn() {
        return new DashboardRefusal(303, "Sign in", "Sign in to continue.", Map.of("Location", "/dashboard/login"));
    }

    /** Another workspace's page, an unknown id, a mode that does not exist: the API's 404, as a page. */
    public static DashboardRefusal notFound() {
        return new DashboardRefusal(
                404,
                "Not found",
                "There is no such page, or it belongs to a workspace you are not a member of.",
                Map.of());
    }

    public static DashboardRefusal forbidden(String message) {
        return new DashboardRefusal(403, "Not allowed", message, Map.of());
    }

    public static DashboardRefusal staleForm() {
        return new DashboardRefusal(
                403,
                "This form has expired",
                "The form was sent from a page of an earlier sign-in. Go back, reload the page and try again.",
                Map.of());
    }

    public static DashboardRefusal unavailable() {
        return new DashboardRefusal(
                503, "Temporarily unavailable", "A Herald service did not answer. Try again in a moment.", Map.of());
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
