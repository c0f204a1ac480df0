package dev.herald.system;

import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A list endpoint read to its end the way a client reads it: each page asks for the previous page's
 * {@code meta.next_cursor}, until a page has none.
 */
final class ApiLists {
    private ApiLists() {}

    /**
     * Every page of {@code path} at {@code limit} items a page, each a {@code 200}. {@code request} gives a fresh
     * request (key, mode) for each page, since a rest-assured request is not reusable once sent.
     */
    static List<JsonPath> pages(Supplier<RequestSpecification> request, String path, int limit) {
        List<JsonPath> pages = new ArrayList<>();
        String cursor = null;
        do {
            RequestSpecification page = request.get().queryParam("limit", limit);
            if (cursor != null) {
                page.queryParam("cursor", cursor);
            }
            JsonPath answer = page.get(path).then().statusCode(200).extract().jsonPath();
            pages.add(answer);
            cursor = answer.getString("meta.next_cursor");
        } while (cursor != null);
        return pages;
    }
}
