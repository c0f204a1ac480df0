package dev.herald.gateway.rest;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import dev.herald.gateway.proxy.EchoUpstream;
import dev.herald.testing.RealInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(
        value = RealInfrastructure.class,
        initArgs = @ResourceArg(name = "database", value = "gateway_test"))
@QuarkusTestResource(EchoUpstream.class)
class DashboardMembersResourceTest {

    @Test
    void anOwnerAddsAMemberWhoseRoleThenLimitsThem() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String members = owner.base("test") + "/members";
        owner.post(members, members, Map.of("email", "Viewer@Example.org", "role", "viewer"))
                .then()
                .statusCode(303)
                .header("Location", containsString("/members?done=added"));
        owner.get(members).then().statusCode(200).body(containsString("viewer@example.org"));

        // The same address again is refused beside the field, with what was typed kept.
        owner.post(members, members, Map.of("email", "viewer@example.org", "role", "owner"))
                .then()
                .statusCode(409)
                .body(containsString("id=\"member-email-error\">This person is already a member"))
                .body(containsString("value=\"viewer@example.org\""));
    }

    @Test
    void badInputComesBackBesideItsField() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String members = owner.base("test") + "/members";
        owner.post(members, members, Map.of("email", "not an address", "role", "admin"))
                .then()
                .statusCode(422)
                .body(containsString("id=\"member-email-error\">Enter an email address"))
                .body(containsString("id=\"member-role-error\">Choose owner, developer or viewer."))
                .body(containsString("value=\"not an address\""));
    }

    @Test
    void theLastOwnerCannotBeRemovedOrDemoted() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        String members = owner.base("test") + "/members";
        owner.post(members, members + "/" + owner.memberId + "/role", Map.of("role", "viewer"))
                .then()
                .statusCode(409)
                .body(containsString("keeps at least one owner"));
        owner.post(members, members + "/" + owner.memberId + "/remove", Map.of())
                .then()
                .statusCode(409)
                .body(containsString("keeps at least one owner"));
    }

    @Test
    void aRemovedMemberLosesAccessAtOnce() {
        DashboardVisitor owner = DashboardVisitor.signedInToNewWorkspace("owner");
        DashboardVisitor developer = DashboardVisitor.signedIn(owner.workspaceId, "developer");
        String members = owner.base("test") + "/members";
        developer.get(members).then().statusCode(200).body(not(containsString("id=\"add-member\"")));
        developer
                .post(members, members, Map.of("email", "x@example.org", "role", "owner"))
                .then()
                .statusCode(403);

        String page = owner.get(members + "/" + developer.memberId + "/remove")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Assertions.assertThat(page).contains("id=\"confirm-remove\"");
        owner.post(members, members + "/" + developer.memberId + "/remove", Map.of())
                .then()
                .statusCode(303);
        developer.get(members).then().statusCode(404);
    }

    @Test
    void membersOfAnotherWorkspaceAreNotFound() {
        DashboardVisitor mine = DashboardVisitor.signedInToNewWorkspace("owner");
        DashboardVisitor theirs = DashboardVisitor.signedInToNewWorkspace("owner");
        String theirMembers = theirs.base("test") + "/members";
        mine.get(theirMembers + "/" + theirs.memberId + "/remove").then().statusCode(404);
        // A member id of another workspace under my own workspace's path is not found either.
        String mineMembers = mine.base("test") + "/members";
        mine.post(mineMembers, mineMembers + "/" + theirs.memberId + "/remove", Map.of())
                .then()
                .statusCode(404);
    }
}
