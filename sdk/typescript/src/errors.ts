/** Herald's error answers as exceptions, one class per family of `error.code`. */

/**
 * An error answer of the API (`{ error: { code, message, details }, request_id }`). `code` is `error.code`
 * (`http_<status>` when the body is not Herald's error envelope); `retryAfter` the `Retry-After` seconds of a 429 or
 * 503 (undefined when absent).
 */
export class HeraldApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly requestId?: string,
    readonly retryAfter?: number,
  ) {
    super(`${status} ${code}: ${message}${requestId ? ` (request ${requestId})` : ''}`);
    this.name = new.target.name;
  }
}

/** The request is wrong as sent: its syntax, fields, cursor or headers. */
export class InvalidRequestError extends HeraldApiError {}
/** The API key (or token) is missing, unknown, revoked or expired. */
export class AuthenticationError extends HeraldApiError {}
/** The credential may not do this: a scope it lacks, or a test-mode-only operation in live mode. */
export class PermissionDeniedError extends HeraldApiError {}
/** No such resource in the credential's workspace and mode. */
export class NotFoundError extends HeraldApiError {}
/** The resource's state, a plan's limit or an earlier use of the idempotency key refuses the request. */
export class ConflictError extends HeraldApiError {}
/** The per-minute rate or a monthly allowance is spent; `retryAfter` says for how long. */
export class RateLimitedError extends HeraldApiError {}
/** Herald could not reach one of its services for now; try again later. */
export class ServiceUnavailableError extends HeraldApiError {}

type ErrorClass = new (...args: ConstructorParameters<typeof HeraldApiError>) => HeraldApiError;

const BY_CODE: Record<string, ErrorClass> = {};
function family(cls: ErrorClass, codes: string[]) {
  for (const code of codes) BY_CODE[code] = cls;
}
family(InvalidRequestError, ['invalid_request', 'invalid_cursor', 'idempotency_key_required', 'validation_failed',
  'payload_too_large', 'unsupported_media_type', 'method_not_allowed']);
family(AuthenticationError, ['authentication_failed']);
family(PermissionDeniedError, ['insufficient_scope', 'test_mode_only']);
family(NotFoundError, ['not_found']);
family(ConflictError, ['conflict', 'external_id_taken', 'account_has_pending_posts', 'profile_not_empty',
  'post_not_cancelable', 'idempotency_key_in_use', 'idempotency_key_reused', 'account_limit_reached',
  'account_capacity_exceeded', 'analytics_consent_not_required', 'account_reauth_required']);
family(RateLimitedError, ['rate_limit_exceeded', 'usage_limit_exceeded']);
family(ServiceUnavailableError, ['service_unavailable']);

/** The exception for an error answer: its status, its parsed JSON body (or undefined) and its Retry-After seconds. */
export function errorFromBody(status: number, body: unknown, retryAfter?: number): HeraldApiError {
  const envelope = body as { error?: { code?: unknown; message?: unknown; details?: unknown }; request_id?: unknown };
  const error = envelope && typeof envelope === 'object' ? envelope.error : undefined;
  if (!error || typeof error.code !== 'string') {
    return new HeraldApiError(status, `http_${status}`, `HTTP ${status}`, {}, undefined, retryAfter);
  }
  const cls = BY_CODE[error.code] ?? HeraldApiError;
  return new cls(status, error.code, String(error.message ?? ''), (error.details as Record<string, unknown>) ?? {},
    typeof envelope.request_id === 'string' ? envelope.request_id : undefined, retryAfter);
}
