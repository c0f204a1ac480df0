"""Verifies a Herald webhook delivery (standard library only)."""

import hashlib
import hmac
import time

DEFAULT_TOLERANCE = 300


class WebhookVerificationError(ValueError):
    """A delivery that must not be trusted: answer it with a 4xx and do not act on its body. ``reason`` is one of
    missing_header, malformed_header, timestamp_too_old, timestamp_too_new, no_matching_signature."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


def verify_webhook(raw_body, headers, secrets, tolerance=DEFAULT_TOLERANCE, now=None):
    """Checks a delivery over its raw body bytes (a re-serialized body does not match) and answers its event id
    (``webhook-id``, to deduplicate by: delivery is at least once), or raises WebhookVerificationError.

    ``headers``: a mapping of the request's headers (any case); ``secrets``: the endpoint's secret (``whsec_...``),
    or a list of them while rotating. ``webhook-signature`` holds space-separated ``v1=<hex>`` values, each the
    HMAC-SHA256, keyed with a secret's UTF-8 bytes, of ``<webhook-id>.<webhook-timestamp>.<raw body>``.
    """
    if isinstance(secrets, str):
        secrets = [secrets]
    if not secrets or not all(secrets):
        raise ValueError("at least one non-empty webhook secret is needed")
    lower = {str(name).lower(): value for name, value in headers.items()}
    msg_id, timestamp, signature = (lower.get(name) for name in
                                    ("webhook-id", "webhook-timestamp", "webhook-signature"))
    if not (msg_id and timestamp and signature):
        raise WebhookVerificationError("missing_header", "missing webhook-id, webhook-timestamp or webhook-signature")
    if "." in msg_id:
        raise WebhookVerificationError("malformed_header", "webhook-id must not contain '.'")
    timestamp = timestamp.strip()
    if not timestamp.isdigit() or len(timestamp) > 12:
        raise WebhookVerificationError("malformed_header", "webhook-timestamp must be whole Unix seconds")
    current = int(time.time() if now is None else now)
    if int(timestamp) < current - tolerance:
        raise WebhookVerificationError("timestamp_too_old", f"webhook-timestamp is more than {tolerance} s old")
    if int(timestamp) > current + tolerance:
        raise WebhookVerificationError("timestamp_too_new", f"webhook-timestamp is more than {tolerance} s ahead")
    if isinstance(raw_body, str):
        raw_body = raw_body.encode("utf-8")
    offered = [part[3:].lower() for part in signature.split() if part.startswith("v1=")]
    if not offered:
        raise WebhookVerificationError("malformed_header", "webhook-signature has no v1= signature")
    signed = f"{msg_id}.{timestamp}.".encode("utf-8") + raw_body
    for secret in secrets:
        expected = hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()
        if any(hmac.compare_digest(candidate, expected) for candidate in offered):
            return msg_id
    raise WebhookVerificationError("no_matching_signature", "no v1= signature matches the body with the secret(s)")


def sign_webhook(secret, msg_id, timestamp, raw_body):
    """The ``v1=<hex>`` signature Herald sends for this delivery: for testing a receiver."""
    if isinstance(raw_body, str):
        raw_body = raw_body.encode("utf-8")
    signed = f"{msg_id}.{timestamp}.".encode("utf-8") + raw_body
    return "v1=" + hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()
