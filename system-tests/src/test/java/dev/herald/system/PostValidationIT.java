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
 * with their codes and fields, the media probe's among them (the provider fakes serve sample files whose headers say
 * their dimensions and duration), a valid body is valid, and a dry run reserves nothing and counts as one API request.
 */
class PostValidationIT {

    /** A sample file at the provider fakes whose header says {@code query} (width, height, seconds). */
    private static String sample(String name, String query) {
        return "{\"url\":\"" + RunningSuite.get().providerFakesUrl() + "/_fakes/media/" + name + "?" + query
                + "\",\"type\":\"" + (name.endsWith(".mp4") ? "video" : "image") + "\"}";
    }

    /** {@code count} square JPEG photos, as items. */
    private static String images(int count) {
        return "[" + String.join(",", photos(0, count)) + "]";
    }

    private static List<String> photos(int from, int count) {
        return java.util.stream.IntStream.range(from, from + count)
                .mapToObj(i -> sample("photo-" + i + ".jpg", "bytes=4096&width=1080&height=1080"))
                .toList();
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

    /** The message of target {@code index}'s problem "field code". */
    private static String message(JsonPath answer, int index, String fieldAndCode) {
        List<Map<String, String>> problems = answer.getList("data.targets[" + index + "].problems");
        return problems.stream()
                .filter(p -> fieldAndCode.equals(p.get("field") + " " + p.get("code")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + fieldAndCode + " in " + problems))
                .get("message");
    }

    @Test
    void oneAnswerNamesEveryTargetsProblemsAndTheDryRunReservesNothingAndCountsOnce() {
        String key = PostsPipelineIT.testKey("Post validation");
        String instagram = PostsPipelineIT.account(key, "instagram", "val_instagram");
        String tiktok = PostsPipelineIT.account(key, "tiktok", "val_tiktok");
        String pinterest = PostsPipelineIT.account(key, "pinterest", "val_pinterest");
        String linkedIn = PostsPipelineIT.account(key, "linkedin", "val_linkedin");
        String facebook = PostsPipelineIT.account(key, "facebook", "val_facebook");
        String board = as(key).get("/accounts/" + pinterest + "/boards")
                .then()
                .statusCode(200)
                .extract()
                .path("data[0].id");

        // 11 items: a 5:1 image, a 90-second vertical video, one the host answers 404 for, and eight square photos.
        List<String> media = new java.util.ArrayList<>(List.of(
                sample("banner.jpg", "bytes=4096&width=2500&height=500"),
                sample("tour.mp4", "bytes=200000&width=1080&height=1920&seconds=90"),
                "{\"url\":\"" + RunningSuite.get().providerFakesUrl()
                        + "/_fakes/no-such-host-path/gone.jpg\",\"type\":\"image\"}"));
        media.addAll(photos(3, 8));
        JsonPath before = RunningSuite.usage(key);
        JsonPath answer = validate(
                key,
                "{\"text\":\"" + "Long story. ".repeat(200) + "\",\"account_ids\":[\"" + instagram + "\",\"" + tiktok
                        + "\",\"" + pinterest + "\",\"" + facebook + "\"],\"media\":[" + String.join(",", media) + "],"
                        + "\"platform_options\":{\"tiktok\":{\"privacy_level\":\"FRIENDS\"},"
                        + "\"facebook\":{\"format\":\"story\"},"
                        + "\"pinterest\":{\"board_id\":\"" + board + "\",\"first_comment\":{\"text\":\"Pin it\"}}}}");
        JsonPath after = RunningSuite.usage(key);

        assertThat(answer.getBoolean("data.valid")).isFalse();
        // The item the host answers 404 for fails every target: the post's problem.
        List<Map<String, String>> postProblems = answer.getList("data.problems");
        assertThat(postProblems)
                .extracting(p -> p.get("field") + " " + p.get("code"))
                .containsExactly("media[2].url media_unavailable");
        assertThat(postProblems.get(0).get("message")).contains("404");
        assertThat(answer.getList("data.targets.account_id")).containsExactly(instagram, tiktok, pinterest, facebook);
        assertThat(answer.getList("data.targets.platform"))
                .containsExactly("instagram", "tiktok", "pinterest", "facebook");
        // A 2400-character caption: over Instagram's, TikTok's and Pinterest's limits; 11 items: over Instagram's
        // carousel (and Pinterest's); the 5:1 image is outside Instagram's 4:5 to 1.91:1.
        assertThat(problems(answer, 0))
                .contains("text too_long", "media too_long", "media[0] aspect_ratio_out_of_range");
        assertThat(message(answer, 0, "media too_long")).contains("2 to 10");
        assertThat(message(answer, 0, "media[0] aspect_ratio_out_of_range")).contains("5:1");
        assertThat(problems(answer, 1))
                .contains("text too_long", "platform_options.tiktok.privacy_level invalid_value");
        assertThat(message(answer, 1, "platform_options.tiktok.privacy_level invalid_value"))
                .contains("FRIENDS");
        assertThat(problems(answer, 2))
                .contains("text too_long", "media too_long", "platform_options.pinterest.first_comment not_supported");
        // A Facebook story is one item, and its video at most 60 seconds.
        assertThat(problems(answer, 3)).contains("media too_long", "media[1] video_too_long");
        assertThat(message(answer, 3, "media[1] video_too_long")).contains("60");

        // Nothing reserved or published. Between the two usage reads, the validate call is one API request and the
        // second read (a fresh usage read counts) the other.
        assertThat(after.getInt("publications.reserved")).isZero();
        assertThat(after.getInt("publications.used")).isEqualTo(before.getInt("publications.used"));
        assertThat(after.getInt("api_requests.used")).isEqualTo(before.getInt("api_requests.used") + 2);

        JsonPath valid = validate(
                key,
                "{\"text\":\"Three of a kind #launch\",\"account_ids\":[\"" + instagram + "\",\"" + linkedIn
                        + "\"],\"media\":" + images(3) + ",\"first_comment\":{\"text\":\"Link in bio\"}}");
        assertThat(valid.getList("data.problems")).isEmpty();
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
