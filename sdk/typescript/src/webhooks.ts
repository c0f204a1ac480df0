/** Verifies a Herald webhook delivery (Node's crypto only). */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type WebhookRefusal =
  | 'missing_header' | 'malformed_header' | 'timestamp_too_old' | 'timestamp_too_new' | 'no_matching_signature';

/** A delivery that must not be trusted: answer it with a 4xx and do not act on its body. */
export class WebhookVerificationError extends Error {
  constructor(readonly reason: WebhookRefusal, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyOptions {
  /** Seconds the delivery's timestamp may be away from now, either way (300). */
  toleranceSeconds?: number;
  /** Now, in Unix seconds (tests). */
  now?: number;
}

function hmac(secret: string, id: string, timestamp: string, rawBody: Buffer): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), rawBody]))
    .digest();
}

/**
 * Checks a delivery over its raw body (a re-serialized body does not match) and answers its event id
 * (`webhook-id`, to deduplicate by: delivery is at least once), or throws WebhookVerificationError. `headers`: the
 * request's headers (Node's lower-case object, a Headers, or any case); `secrets`: the endpoint's secret
 * (`whsec_...`), or several while rotating. `webhook-signature` holds space-separated `v1=<hex>` values, each the
 * HMAC-SHA256, keyed with a secret's UTF-8 bytes, of `<webhook-id>.<webhook-timestamp>.<raw body>`.
 */
export function verifyWebhook(
  rawBody: Buffer | Uint8Array | string,
  headers: Headers | Record<string, string | string[] | undefined>,
  secrets: string | string[],
  options: VerifyOptions = {},
): string {
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  if (keys.length === 0 || keys.some((secret) => !secret)) throw new Error('at least one webhook secret is needed');
  const header = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    return Array.isArray(found) ? found[0] : found;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp')?.trim();
  const signature = header('webhook-signature');
  if (!id || !timestamp || !signature) {
    throw new WebhookVerificationError('missing_header', 'missing webhook-id, webhook-timestamp or webhook-signature');
  }
  if (id.includes('.')) throw new WebhookVerificationError('malformed_header', "webhook-id must not contain '.'");
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError('malformed_header', 'webhook-timestamp must be whole Unix seconds');
  }
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Number(timestamp) < now - tolerance) {
    throw new WebhookVerificationError('timestamp_too_old', `webhook-timestamp is more than ${tolerance} s old`);
  }
  if (Number(timestamp) > now + tolerance) {
    throw new WebhookVerificationError('timestamp_too_new', `webhook-timestamp is more than ${tolerance} s ahead`);
  }
  const offered = signature.split(' ').filter((part) => part.startsWith('v1=')).map((part) => part.slice(3));
  if (offered.length === 0) {
    throw new WebhookVerificationError('malformed_header', 'webhook-signature has no v1= signature');
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  for (const secret of keys) {
    const expected = hmac(secret, id, timestamp, body);
    for (const hex of offered) {
      const given = Buffer.from(hex, 'hex');
      if (given.length === expected.length && timingSafeEqual(given, expected)) return id;
    }
  }
  throw new WebhookVerificationError('no_matching_signature', 'no v1= signature matches the body with the secret(s)');
}

/** The `v1=<hex>` signature Herald sends for this delivery: for testing a receiver. */
export function signWebhook(secret: string, id: string, timestamp: number, rawBody: Buffer | string): string {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  return `v1=${hmac(secret, id, String(timestamp), body).toString('hex')}`;
}
