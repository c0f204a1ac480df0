package dev.herald.system;

import static dev.herald.system.RunningSuite.as;

import io.restassured.http.ContentType;

/**
 * A fresh workspace with what the dashboard's post pages need: a test key, the profile "Corner Bakery" and its
 * LinkedIn account "Bakery Page" (@cornerbakery), created through the public API with the key.
 */
record DashboardWorkspace(String id, String key, String profile, String account) {

    static DashboardWorkspace withLinkedInAccount(String name) {
        String workspace = RunningSuite.newWorkspace(name);
        String key = RunningSuite.newKey(workspace, "test");
        String profile = created(key, "/profiles", "{\"name\":\"Corner Bakery\"}");
        String account = created(
                key,
                "/accounts",
                "{\"platform\":\"linkedin\",\"profile_id\":\"" + profile
                        + "\",\"name\":\"Bakery Page\",\"username\":\"cornerbakery\"}");
        return new DashboardWorkspace(workspace, key, profile, account);
    }

    /** Its pages in test mode: {@code /dashboard/w/{id}/test}. */
    String base() {
        return DashboardSession.base(id, "test");
    }

    /** Retries a 503, the API's transient answer on a loaded machine (a just-started service's first calls). */
    private static String created(String key, String path, String body) {
        return SecuritySupport.retrying503(
                        () -> as(key).contentType(ContentType.JSON).body(body).post(path))
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }
}
