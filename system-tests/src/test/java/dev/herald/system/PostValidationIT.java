package dev.herald.system;

import static dev.herald.system.RunningSuite.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /posts/validate} through the gateway against sandbox accounts: one answer names each target's problems
 * with their codes and fields, a valid body is valid, and a dry run reserves nothing and counts as one API request.
 */
class PostValidationIT {

    private static String images(int count) {
        StringBuilder items = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            items.append(i == 0 ? "" : ",")
                    .append("{\"url\":\"https://cdn.example.com/photo-")
                    .append(i)
                    .append(".jpg\",\"type\":\"image\"}");
        }
        return items.append(']').toString();
    }

    private static JsonPath validate(String key, String body) {
        return as(key).contentType(ContentType.JSON)
                .body(body)
                .post("/posts/validate")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    /** Each problem of target {@code index} as "field code". */
    private static List<String> problems(JsonPath answer, int index) {
        List<Map<String, String>> problems = answer.getList("data.targets[" + index + "].problems");
        return problems.stream().map(p -> p.get("field") + " " + p.get("code")).toList();
    }

    @Test
    void oneAnswerNamesEveryTargetsProblemsAndTheDryRunReservesNothingAndCountsOnce() {
        String key = PostsPipelineIT.testKey("Post validation");
        String instagram = PostsPipelineIT.account(key, "instagram", "val_instagram");
        String tiktok = PostsPipelineIT.account(key, "tiktok", "val_tiktok");
        String pinterest = PostsPipelineIT.account(key, "pinterest", "val_pinterest");
        String linkedIn = PostsPipelineIT.account(key, "linkedin", "val_linkedin");
        String board = as(key).get("/accounts/" + pinterest + "/boards")
                .then()
                .statusCode(200)
                .extract()
                .path("data[0].id");

        JsonPath before = RunningSuite.usage(key);
        JsonPath answer = validate(
                key,
                "{\"text\":\"" + "Long story. ".repeat(200) + "\",\"account_ids\":[\"" + instagram + "\",\"" + tiktok
                        + "\",\"" + pinterest + "\"],\"media\":" + images(11) + ","
                        + "\"platform_options\":{\"tiktok\":{\"privacy_level\":\"FRIENDS\"},"
                        + "\"pinterest\":{\"board_id\":\"" + board + "\",\"first_comment\":{\"text\":\"Pin it\"}}}}");
        JsonPath after = RunningSuite.usage(key);

        assertThat(answer.getBoolean("data.valid")).isFalse();
        assertThat(answer.getList("data.problems")).isEmpty();
        assertThat(answer.getList("data.targets.account_id")).containsExactly(instagram, tiktok, pinterest);
        assertThat(answer.getList("data.targets.platform")).containsExactly("instagram", "tiktok", "pinterest");
        // A 2400-character caption: over Instagram's, TikTok's and Pinterest's limits; 11 items: over Instagram's
        // carousel (and Pinterest's), a TikTok photo post takes them.
        assertThat(problems(answer, 0)).containsExactly("text too_long", "media too_long");
        assertThat(answer.getString("data.targets[0].problems[1].message")).contains("2 to 10");
        assertThat(problems(answer, 1))
                .containsExactly("text too_long", "platform_options.tiktok.privacy_level invalid_value");
        assertThat(answer.getString("data.targets[1].problems[1].message")).contains("FRIENDS");
        assertThat(problems(answer, 2))
                .containsExactly(
                        "text too_long", "media too_long", "platform_options.pinterest.first_comment not_supported");

        // Nothing reserved or published; the validate call is the one API request between the two usage reads.
        assertThat(after.getInt("publications.reserved")).isZero();
        assertThat(after.getInt("publications.used")).isEqualTo(before.getInt("publications.used"));
        assertThat(after.getInt("api_requests.used")).isEqualTo(before.getInt("api_requests.used") + 2);

        JsonPath valid = validate(
                key,
                "{\"text\":\"Three of a kind #launch\",\"account_ids\":[\"" + instagram + "\",\"" + linkedIn
                        + "\"],\"media\":" + images(3) + ",\"first_comment\":{\"text\":\"Link in bio\"}}");
        assertThat(valid.getBoolean("data.valid")).isTrue();
        assertThat(valid.getList("data.targets.account_id")).containsExactly(instagram, linkedIn);
        assertThat(problems(valid, 0)).isEmpty();
        assertThat(problems(valid, 1)).isEmpty();

        as(key).get("/posts").then().statusCode(200).body("data", empty());
        as(key).contentType(ContentType.JSON)
                .body("[\"not a post\"]")
                .post("/posts/validate")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("invalid_request"));
    }
}
