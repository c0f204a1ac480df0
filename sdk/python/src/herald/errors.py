"""Herald's error answers as exceptions, one class per family of ``error.code``."""


class HeraldError(Exception):
    """An error answer of the API (``{"error": {"code", "message", "details"}, "request_id"}``).

    ``code`` is ``error.code`` (``http_<status>`` when the body is not Herald's error envelope), ``details`` its
    details (a dict), ``retry_after`` the ``Retry-After`` seconds of a 429 or 503 (None when absent).
    """

    def __init__(self, status, code, message, details=None, request_id=None, retry_after=None):
        super().__init__(f"{status} {code}: {message}" + (f" (request {request_id})" if request_id else ""))
        self.status = status
        self.code = code
        self.message = message
        self.details = details if details is not None else {}
        self.request_id = request_id
        self.retry_after = retry_after


class InvalidRequestError(HeraldError):
    """The request is wrong as sent: its syntax, fields, cursor or headers."""


class AuthenticationError(HeraldError):
    """The API key (or token) is missing, unknown, revoked or expired."""


class PermissionDeniedError(HeraldError):
    """The credential may not do this: a scope it lacks, or a test-mode-only operation in live mode."""


class NotFoundError(HeraldError):
    """No such resource in the credential's workspace and mode."""


class ConflictError(HeraldError):
    """The resource's state, a plan's limit or an earlier use of the idempotency key refuses the request."""


class RateLimitedError(HeraldError):
    """The per-minute rate or a monthly allowance is spent; ``retry_after`` says for how long."""


class ServiceUnavailableError(HeraldError):
    """Herald could not reach one of its services for now; try again later."""


class HeraldConnectionError(Exception):
    """The API could not be reached at all (no answer, a refused connection, a timeout)."""


_BY_CODE = {
    **dict.fromkeys(
        ["invalid_request", "invalid_cursor", "idempotency_key_required", "validation_failed", "payload_too_large",
         "unsupported_media_type", "method_not_allowed"], InvalidRequestError),
    "authentication_failed": AuthenticationError,
    **dict.fromkeys(["insufficient_scope", "test_mode_only"], PermissionDeniedError),
    "not_found": NotFoundError,
    **dict.fromkeys(
        ["conflict", "external_id_taken", "account_has_pending_posts", "profile_not_empty", "post_not_cancelable",
         "idempotency_key_in_use", "idempotency_key_reused", "account_limit_reached", "account_capacity_exceeded",
         "analytics_consent_not_required", "account_reauth_required"], ConflictError),
    **dict.fromkeys(["rate_limit_exceeded", "usage_limit_exceeded"], RateLimitedError),
    "service_unavailable": ServiceUnavailableError,
}


def error_from_response(status, body, retry_after=None):
    """The exception for an error answer: its status, its parsed JSON body (or None) and its Retry-After seconds."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict) or not isinstance(error.get("code"), str):
        return HeraldError(status, f"http_{status}", f"HTTP {status}", retry_after=retry_after)
    request_id = body.get("request_id")
    cls = _BY_CODE.get(error["code"], HeraldError)
    return cls(status, error["code"], error.get("message", ""), error.get("details"), request_id, retry_after)
