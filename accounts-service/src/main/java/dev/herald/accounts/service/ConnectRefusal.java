package dev.herald.accounts.service;

import dev.herald.accounts.model.ConnectSessionEntity;
import dev.herald.common.wire.Platform;

/**
 * Why a hosted page cannot do what the browser asked. Pages show it as a clear message with its HTTP status, in the
 * page's language (the words are the page's message bundle's, by reason); {@code code} is shown too, so an end user can
 * quote it to the customer's support.
 */
public class ConnectRefusal extends RuntimeException {
    public enum Reason {
        UNKNOWN_LINK(404, "connect_session_not_found"),
        EXPIRED(410, "connect_session_expired"),
        REVOKED(410, "connect_session_revoked"),
        COMPLETED(410, "connect_session_completed"),
        OTHER_BROWSER(403, "connect_session_browser_mismatch"),
        INVALID_FORM(400, "invalid_request"),
        AUTHORIZATION_DENIED(400, "authorization_denied"),
        PLATFORM_UNAVAILABLE(503, "platform_unavailable"),
        OTHER_ACCOUNT(409, "reconnect_account_mismatch"),
        PROVIDER_FAILED(502, "provider_error");

        private final int status;
        private final String code;

        Reason(int status, String code) {
            this.status = status;
            this.code = code;
        }

        public int status() {
            return status;
        }

        public String code() {
            return code;
        }
    }

    /** The account a reconnect link expected when the platform authorized another one (OTHER_ACCOUNT). */
    public record ExpectedAccount(Platform platform, String name, String who) {}

    private final Reason reason;
    /** The session the page belongs to, when known and the browser may go back to it; else null. */
    private final String sessionId;
    /**
     * The session the refusal is about, when known (its language and embedding origin), even when the browser may not
     * go back to it; else null.
     */
    private final ConnectSessionEntity session;

    private final ExpectedAccount expectedAccount;

    private ConnectRefusal(
            Reason reason, String sessionId, ConnectSessionEntity session, ExpectedAccount expectedAccount) {
        super(reason.code());
        this.reason = reason;
        this.sessionId = sessionId;
        this.session = session;
        this.expectedAccount = expectedAccount;
    }

    public ConnectRefusal(Reason reason, String sessionId) {
        this(reason, sessionId, null, null);
    }

    public ConnectRefusal(Reason reason) {
        this(reason, null);
    }

    /** A dead session's refusal: shown in the session's language, and where its embedding origin may frame it. */
    public static ConnectRefusal ofDeadSession(Reason reason, ConnectSessionEntity session) {
        return new ConnectRefusal(reason, null, session, null);
    }

    /** A reconnect link's platform authorized another account than {@code expected}. */
    public static ConnectRefusal otherAccount(ConnectSessionEntity session, ExpectedAccount expected) {
        return new ConnectRefusal(Reason.OTHER_ACCOUNT, session.id, session, expected);
    }

    public Reason reason() {
        return reason;
    }

    public String sessionId() {
        return sessionId;
    }

    /** The session's page language ({@code locale}), when known; else null. */
    public String locale() {
        return session == null ? null : session.locale;
    }

    /** The origin that may frame the session's pages, when known; else null (a refusal page is not framed). */
    public String embedOrigin() {
        return session == null ? null : session.embedOrigin;
    }

    public ExpectedAccount expectedAccount() {
        return expectedAccount;
    }
}
