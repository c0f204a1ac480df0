package dev.herald.profiles.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;

import dev.herald.common.auth.Mode;
import dev.herald.common.ids.IdPrefix;
import dev.herald.common.ids.ResourceIds;
import dev.herald.testing.RealInfrastructure;
import dev.herald.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "profiles_test"))
class ProfileQueueResourceTest {
    private static final String QUEUE = """
            {"timezone":"Europe/Berlin","slots":[
              {"day":"wednesday","time":"18:30"},{"day":"monday","time":"09:00"},{"day":"monday","time":"08:15"}]}""";

    private String workspace;
    private String profileId;

    @BeforeEach
    void newProfile() {
        workspace = ResourceIds.newId(IdPrefix.WORKSPACE);
        profileId = as(workspace, Mode.TEST)
                .body("{\"name\":\"Acme\"}")
                .post("/profiles")
                .then()
                .statusCode(201)
                .extract()
                .path("data.id");
    }

    private static RequestSpecification as(String workspaceId, Mode mode) {
        return given().header("Authorization", TestTokens.bearer(workspaceId, mode, "profiles:read", "profiles:write"))
                .contentType(ContentType.JSON);
    }

    private RequestSpecification asTest() {
        return as(workspace, Mode.TEST);
    }

    @Test
    void putAnswersTheQueueWithItsSlotsInWeekOrder() {
        asTest().body(QUEUE)
                .put("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(200)
                .body("data.profile_id", equalTo(profileId))
                .body("data.timezone", equalTo("Europe/Berlin"))
                .body("data.slots.day", contains("monday", "monday", "wednesday"))
                .body("data.slots.time", contains("08:15", "09:00", "18:30"))
                .body("data.updated_at", notNullValue());
        asTest().get("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(200)
                .body("data.slots.time", contains("08:15", "09:00", "18:30"));
        // posts-service's read answers the same.
        asTest().get("/internal/profiles/" + profileId + "/queue")
                .then()
                .statusCode(200)
                .body("data.timezone", equalTo("Europe/Berlin"))
                .body("data.slots", hasSize(3));
    }

    @Test
    void putReplacesTheWholeQueue() {
        asTest().body(QUEUE).put("/profiles/" + profileId + "/queue").then().statusCode(200);
        asTest().body("{\"timezone\":\"America/New_York\",\"slots\":[{\"day\":\"sunday\",\"time\":\"02:30\"}]}")
                .put("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(200);
        asTest().get("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(200)
                .body("data.timezone", equalTo("America/New_York"))
                .body("data.slots.day", contains("sunday"));
    }

    @Test
    void putReportsEveryInvalidSlotWithItsPath() {
        asTest().body("""
                        {"timezone":"+02:00","slots":[
                          {"day":"monday","time":"09:00"},
                          {"day":"mon","time":"9:00"},
                          {"day":"friday","time":"24:00","at":1},
                          {"day":"monday","time":"09:00"},
                          "tuesday 10:00"],
                         "paused":true}""")
                .put("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(422)
                .body("error.code", equalTo("validation_failed"))
                .body("error.details.errors", hasSize(8))
                .body("error.details.errors.find { it.field == 'timezone' }.code", equalTo("invalid_value"))
                .body("error.details.errors.find { it.field == 'paused' }.code", equalTo("unknown_field"))
                .body("error.details.errors.find { it.field == 'slots[1].day' }.code", equalTo("invalid_value"))
                .body("error.details.errors.find { it.field == 'slots[1].time' }.code", equalTo("invalid_format"))
                .body("error.details.errors.find { it.field == 'slots[2].time' }.code", equalTo("invalid_format"))
                .body("error.details.errors.find { it.field == 'slots[2].at' }.code", equalTo("unknown_field"))
                .body("error.details.errors.find { it.field == 'slots[3]' }.code", equalTo("invalid_value"))
                .body("error.details.errors.find { it.field == 'slots[4]' }.code", equalTo("invalid_type"));
        asTest().get("/profiles/" + profileId + "/queue").then().statusCode(404);
    }

    @Test
    void putTakesOneToOneHundredSixtyEightSlots() {
        asTest().body("{\"timezone\":\"UTC\",\"slots\":[]}")
                .put("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("slots"))
                .body("error.details.errors[0].code", equalTo("too_short"));
        asTest().body("{\"timezone\":\"UTC\",\"slots\":" + hourly(169) + "}")
                .put("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].code", equalTo("too_long"));
        asTest().body("{\"timezone\":\"UTC\",\"slots\":" + hourly(168) + "}")
                .put("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(200)
                .body("data.slots", hasSize(168));
        asTest().body("{\"slots\":" + hourly(1) + "}")
                .put("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(422)
                .body("error.details.errors[0].field", equalTo("timezone"))
                .body("error.details.errors[0].code", equalTo("required"));
    }

    @Test
    void otherTenantsAndUnknownProfilesHaveNoQueue() {
        asTest().body(QUEUE).put("/profiles/" + profileId + "/queue").then().statusCode(200);
        as(workspace, Mode.LIVE)
                .get("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        as(workspace, Mode.LIVE)
                .body(QUEUE)
                .put("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(404);
        as(ResourceIds.newId(IdPrefix.WORKSPACE), Mode.TEST)
                .delete("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(404);
        asTest().body(QUEUE).put("/profiles/prf_nope/queue").then().statusCode(404);
        asTest().get("/profiles/" + profileId + "/queue").then().statusCode(200);
    }

    @Test
    void deleteRemovesTheQueueOnce() {
        asTest().get("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        asTest().body(QUEUE).put("/profiles/" + profileId + "/queue").then().statusCode(200);
        asTest().delete("/profiles/" + profileId + "/queue")
                .then()
                .statusCode(200)
                .body("data.id", equalTo(profileId))
                .body("data.object", equalTo("queue"))
                .body("data.deleted", equalTo(true));
        asTest().get("/profiles/" + profileId + "/queue").then().statusCode(404);
        asTest().delete("/profiles/" + profileId + "/queue").then().statusCode(404);
    }

    @Test
    void aDeletedProfileTakesItsQueueWithIt() {
        asTest().body(QUEUE).put("/profiles/" + profileId + "/queue").then().statusCode(200);
        asTest().delete("/profiles/" + profileId).then().statusCode(200);
        asTest().get("/internal/profiles/" + profileId + "/queue").then().statusCode(404);
    }

    private static String hourly(int count) {
        List<String> slots = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String day = List.of("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "monday")
                    .get(i / 24);
            slots.add("{\"day\":\"%s\",\"time\":\"%02d:%02d\"}".formatted(day, i % 24, i >= 168 ? 30 : 0));
        }
        return "[" + String.join(",", slots) + "]";
    }
}
