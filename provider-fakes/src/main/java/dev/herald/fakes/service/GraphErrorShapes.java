package dev.herald.fakes.service;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Meta's Graph API error body ({@code {"error": {"message", "type", "code", "error_subcode", "fbtrace_id"}}}), shared
 * by the Facebook and Instagram fakes (https://developers.facebook.com/docs/graph-api/guides/error-handling/).
 */
final class GraphErrorShapes {
    private GraphErrorShapes() {}

    static ObjectNode error(
            ObjectNode body, String type, int code, Integer subcode, String message, boolean transientError) {
        ObjectNode error = body.putObject("error");
        error.put("message", message).put("type", type).put("code", code);
        if (subcode != null) {
            error.put("error_subcode", subcode);
        }
        if (transientError) {
            error.put("is_transient", true);
        }
        error.put("fbtrace_id", FakeIds.alphanumeric(27));
        return body;
    }

    /** Graph's refusal of an action it will not take (code 368, not transient), as Facebook and Instagram answer it. */
    static ObjectNode disallowed(ObjectNode body) {
        return error(
                body,
                "OAuthException",
                368,
                null,
                "The action attempted has been deemed abusive or is otherwise disallowed",
                false);
    }

    /** Code 190: 463 expired, 458 the user removed the app (revoked), none for a token never issued. */
    static ObjectNode invalidToken(ObjectNode body, IssuedTokens.State state) {
        if (state == IssuedTokens.State.EXPIRED) {
            return error(
                    body, "OAuthException", 190, 463, "Error validating access token: Session has expired.", false);
        }
        if (state == IssuedTokens.State.REVOKED) {
            return error(
                    body,
                    "OAuthException",
                    190,
                    458,
                    "Error validating access token: The user has not authorized application.",
                    false);
        }
        return error(
                body, "OAuthException", 190, null, "Invalid OAuth access token - Cannot parse access token", false);
    }
}
