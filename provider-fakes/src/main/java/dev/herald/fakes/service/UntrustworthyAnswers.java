package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.herald.fakes.model.FailureKind;
import dev.herald.fakes.model.FakeResponse;
import java.util.List;

/** A platform's answer spoiled as an untrustworthy platform might send it (the API10 failure kinds). */
final class UntrustworthyAnswers {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> LINKS = List.of("permalink", "permalink_url", "url", "share_url", "link");
    static final String UNSAFE_LINK = "javascript:alert(document.cookie)";

    private UntrustworthyAnswers() {}

    static FakeResponse spoil(FailureKind kind, FakeResponse answer) {
        String body = answer.body() == null ? "{}" : answer.body();
        if (kind == FailureKind.MALFORMED_ANSWER) {
            return new FakeResponse(
                    answer.status(), answer.headers(), "application/json", body.substring(0, body.length() / 2));
        }
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (Exception e) {
            return answer;
        }
        if (!(json instanceof ObjectNode object)) {
            return answer;
        }
        if (kind == FailureKind.UNSAFE_ID) {
            object.put("id", "9".repeat(10_000));
        } else {
            LINKS.stream().filter(object::hasNonNull).forEach(field -> object.put(field, UNSAFE_LINK));
        }
        return new FakeResponse(answer.status(), answer.headers(), "application/json", object.toString());
    }
}
