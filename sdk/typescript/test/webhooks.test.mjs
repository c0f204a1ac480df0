// The webhook verifier, with the vectors of the Java SDK's WebhookVerifierTest (computed independently).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '../dist/index.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER_SECRET = 'whsec_c2Vjb25kIHNlY3JldCBmb3Igcm90YXRpb24h';
const ID = 'evt_0123456789abcdef01234567';
const TIMESTAMP = 1767225600;
const BODY = Buffer.from('{"id":"evt_0123456789abcdef01234567","type":"post.published"}');
const SIGNATURE = 'v1=674adaea78bb4fb474c49f09afb91c2c58923e9edd990b8659430edc2de4bfb2';
const OTHER_SIGNATURE = 'v1=f2bb1d290179fe742f21c47f72689c25318d99e2c81cb23141de9cbf28e06475';
const headers = ({ signature = SIGNATURE, timestamp = String(TIMESTAMP), id = ID } = {}) =>
  ({ 'Webhook-Id': id, 'WEBHOOK-TIMESTAMP': timestamp, 'webhook-signature': signature });
const refused = (reason, ...args) =>
  assert.throws(() => verifyWebhook(...args), (e) => e instanceof WebhookVerificationError && e.reason === reason);

test('a genuine delivery answers its event id', () => {
  assert.equal(verifyWebhook(BODY, headers(), SECRET, { now: TIMESTAMP }), ID);
  assert.equal(verifyWebhook(BODY.toString(), new Headers(headers()), [SECRET], { now: TIMESTAMP + 300 }), ID);
});

test('sign matches an independently computed HMAC', () => {
  assert.equal(signWebhook(SECRET, ID, TIMESTAMP, BODY), SIGNATURE);
  assert.equal(signWebhook(OTHER_SECRET, ID, TIMESTAMP, BODY), OTHER_SIGNATURE);
});

test('any signature matching any secret is enough during a rotation', () => {
  assert.equal(verifyWebhook(BODY, headers({ signature: `${OTHER_SIGNATURE} ${SIGNATURE}` }), SECRET, { now: TIMESTAMP }), ID);
  assert.equal(verifyWebhook(BODY, headers(), [OTHER_SECRET, SECRET], { now: TIMESTAMP }), ID);
});

test('a tampered body or another secret is refused', () => {
  refused('no_matching_signature', Buffer.from(BODY.toString().replace('published', 'failed')), headers(), SECRET,
    { now: TIMESTAMP });
  refused('no_matching_signature', BODY, headers(), OTHER_SECRET, { now: TIMESTAMP });
  refused('no_matching_signature', BODY, headers({ id: 'evt_other' }), SECRET, { now: TIMESTAMP });
});

test('timestamps outside the tolerance are refused', () => {
  refused('timestamp_too_old', BODY, headers(), SECRET, { now: TIMESTAMP + 301 });
  refused('timestamp_too_new', BODY, headers(), SECRET, { now: TIMESTAMP - 301 });
});

test('missing or malformed headers are refused', () => {
  refused('missing_header', BODY, { 'webhook-id': ID, 'webhook-timestamp': String(TIMESTAMP) }, SECRET, { now: TIMESTAMP });
  refused('malformed_header', BODY, headers({ timestamp: 'soon' }), SECRET, { now: TIMESTAMP });
  refused('malformed_header', BODY, headers({ signature: `v1,${SIGNATURE.slice(3)}` }), SECRET, { now: TIMESTAMP });
});
