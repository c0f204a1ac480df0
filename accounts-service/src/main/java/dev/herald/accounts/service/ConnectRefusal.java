package dev.herald.accounts.service;

/**
 * Why a hosted page cannot do what the browser asked. Pages show it as a clear message with its HTTP status;
 * {@code code} is shown too, so an end user can quote it to the customer's support.
 */
public class ConnectRefusal extends RuntimeException {
    public enum Reason {
        UNKNOWN_LINK(
                404,
                "connect_session_not_found",
                "This link does not work",
                "The connection link is not valid. Ask for a new link."),
        EXPIRED(
                410,
                "connect_session_expired",
                "This link has expired",
                "The connection link is no longer valid. Ask for a new link."),
        REVOKED(
                410,
                "connect_session_revoked",
                "This link was canceled",
                "The connection link was canceled and can no longer be used. Ask for a new link."),
        COMPLETED(
                410,
                "connect_session_completed",
                "This link was already used",
                "Accounts were already connected through this link, and it is now closed. Ask for a new link to connect more."),
        OTHER_BROWSER(
                403,
                "connect_session_browser_mismatch",
                "Open the link in the same browser",
                "This step must be finished in the browser that opened the connection link. Open the link again in this browser to start over."),
        INVALID_FORM(
                400,
                "invalid_request",
                "Something is missing",
                "The form was incomplete or out of date. Go back to the connection page and try again."),
        AUTHORIZATION_DENIED(
                400,
                "authorization_denied",
                "Authorization was not completed",
                "The platform did not authorize the connection. Go back to the connection page to try again."),
        PLATFORM_UNAVAILABLE(
                503,
                "platform_unavailable",
                "This platform is not available",
                "Connecting this platform is not available right now. Try again later."),
        OTHER_ACCOUNT(
                409,
                "reconnect_account_mismatch",
                "This is not the account to reconnect",
                "This link reconnects another account. Sign in on the platform as that account, then try again."),
        PROVIDER_FAILED(
                502,
                "provider_error",
                "The platform did not answer as expected",
                "The platform could not complete the connection. Go back to the connection page to try again.");

        private final int status;
        private final String code;
        private final String title;
        private final String message;

        Reason(int status, String code, String title, String message) {
            this.status = status;
            this.code = code;
            this.title = title;
            this.message = message;
        }

        public int status() {
            return status;
        }

        public String code() {
            return code;
        }

        public String title() {
            return title;
        }

        public String message() {
            return message;
        }
    }

    private final Reason reason;
    /** The session the page belongs to, when known and the browser may go back to it; else null. */
    private final String sessionId;
    /** What the page says, when this refusal has more to say than its reason's message; else null. */
    private final String detail;

    public ConnectRefusal(Reason reason, String sessionId, String detail) {
        super(reason.code());
        this.reason = reason;
        this.sessionId = sessionId;
        this.detail = detail;
    }

    public ConnectRefusal(Reason reason, String sessionId) {
        this(reason, sessionId, null);
    }

    public ConnectRefusal(Reason reason) {
        this(reason, null);
    }

    public Reason reason() {
        return reason;
    }

    public String sessionId() {
        return sessionId;
    }

    /** The page's message: this refusal's own, else its reason's. */
    public String message() {
        return detail != null ? detail : reason.message();
    }
}
