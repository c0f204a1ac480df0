package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

/**
 * Post and account analytics through the gateway: a read that had to compute or fetch numbers
 * counts one API request, the next one is answered from the services' cache and is free (the gateway refunds it).
 */
class AnalyticsIT {

    /** API requests used so far; the read itself counts one. */
    private static int used(String key) throws InterruptedException {
        // A cache hit is refunded once its answer has gone out: give the refund a moment to land.
        Thread.sleep(1000);
        return as(key).get("/usage").then().statusCode(200).extract().jsonPath().getInt("data.api_requests.used");
    }

    @Test
    void aFreshAnalyticsReadCountsOnceAndTheCachedOneAfterItIsFree() throws Exception {
        String key = PostsPipelineIT.testKey("Analytics");
        String account = PostsPipelineIT.account(key, "linkedin", "brand");
        String post = PostsPipelineIT.accepted(key, PostsPipelineIT.linkedIn(account));
        assertThat(PostsPipelineIT.awaitFinal(key, post).getString("data.status"))
                .isEqualTo("published");

        int before = used(key);
        JsonPath first = as(key).get("/posts/" + post + "/analytics")
                .then()
                .statusCode(200)
                .header("x-herald-cache", nullValue())
                .body("data.object", equalTo("post_analytics"))
                .body("data.post_id", equalTo(post))
                .body("data.targets[0].account_id", equalTo(account))
                .body("data.targets[0].status", equalTo("available"))
                .body("data.targets[0].raw.simulated", equalTo(true))
                .extract()
                .jsonPath();
        int afterFresh = used(key);
        assertThat(afterFresh).isEqualTo(before + 2);

        JsonPath second = as(key).get("/posts/" + post + "/analytics")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(second.getMap("data")).isEqualTo(first.getMap("data"));
        assertThat(used(key)).isEqualTo(afterFresh + 1);

        int beforeAccount = used(key);
        as(key).get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(200)
                .body("data.object", equalTo("account_analytics"))
                .body("data.status", equalTo("available"))
                .body("data.metrics.followers", equalTo(100));
        as(key).get("/accounts/" + account + "/analytics")
                .then()
                .statusCode(200)
                .body("data.metrics.followers", equalTo(100));
        assertThat(used(key)).isEqualTo(beforeAccount + 2);
    }
}
