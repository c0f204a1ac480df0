// The hand-written layer against a stand-in fetch answering what each test queues (offline).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AuthenticationError, ConflictError, Herald, HeraldApiError, InvalidRequestError, NotFoundError, RateLimitedError,
  paginate, retryAfterSeconds,
} from '../dist/index.js';

function standIn(answers) {
  const seen = [];
  const slept = [];
  const fetchApi = async (url, init) => {
    seen.push({ url: String(url), method: init.method, headers: new Headers(init.headers), body: init.body });
    const [status, headers, body] = answers.shift();
    return new Response(body, { status, headers: { 'Content-Type': 'application/json', ...headers } });
  };
  const herald = new Herald({
    baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_test_unit', fetchApi, sleep: async (s) => { slept.push(s); },
  });
  return { herald, seen, slept };
}

const error = (code, message = 'No.', details = {}) =>
  JSON.stringify({ error: { code, message, details }, request_id: 'req_1' });
const POST = JSON.stringify({ data: { id: 'pst_1', status: 'queued', targets: [], created_at: '2026-11-28T10:00:00Z', updated_at: '2026-11-28T10:00:00Z' } });

test('a 429 is retried after its Retry-After with the same Idempotency-Key', async () => {
  const { herald, seen, slept } = standIn([[429, { 'Retry-After': '3' }, error('rate_limit_exceeded')], [202, {}, POST]]);
  const post = await herald.createPost({ text: 'Hi', accountIds: new Set(['acc_1']) });
  assert.equal(post.data.id, 'pst_1');
  assert.deepEqual(slept, [3]);
  assert.equal(seen.length, 2);
  assert.ok(seen[0].headers.get('Idempotency-Key'));
  assert.equal(seen[0].headers.get('Idempotency-Key'), seen[1].headers.get('Idempotency-Key'));
  assert.equal(seen[0].headers.get('Authorization'), 'Bearer sk_test_unit');
  assert.equal(seen[0].url, 'http://127.0.0.1:1/api/v1/posts');
});

test('a 503 without Retry-After backs off and gives up after maxRetries', async () => {
  const { herald, slept } = standIn([0, 1, 2].map(() => [503, {}, error('service_unavailable')]));
  await assert.rejects(herald.usage.getUsage(), (e) => e instanceof HeraldApiError && e.code === 'service_unavailable');
  assert.deepEqual(slept, [1, 2]);
});

test('each post and batch item gets its own idempotency key unless given', async () => {
  const { herald, seen } = standIn([[202, {}, POST], [202, {}, POST], [200, {}, JSON.stringify({ data: [] })]]);
  await herald.createPost({ text: 'Hi', accountIds: new Set(['acc_1']) });
  await herald.createPost({ text: 'Hi', accountIds: new Set(['acc_1']) }, 'mine');
  await herald.createPostBatch([{ text: 'a', accountIds: new Set(['acc_1']) },
    { text: 'b', accountIds: new Set(['acc_1']), idempotencyKey: 'kept' }]);
  assert.notEqual(seen[0].headers.get('Idempotency-Key'), 'mine');
  assert.equal(seen[1].headers.get('Idempotency-Key'), 'mine');
  const items = JSON.parse(seen[2].body).posts;
  assert.ok(items[0].idempotency_key);
  assert.equal(items[1].idempotency_key, 'kept');
});

test('a wait longer than allowed is the caller\'s as a RateLimitedError', async () => {
  const { herald, slept } = standIn([[429, { 'Retry-After': '3600' }, error('usage_limit_exceeded')]]);
  await assert.rejects(herald.profiles.listProfiles(), (e) => e instanceof RateLimitedError && e.retryAfter === 3600);
  assert.deepEqual(slept, []);
});

test('errors are typed by their code', async () => {
  const { herald } = standIn([
    [404, {}, error('not_found', 'No such post.')],
    [422, {}, error('validation_failed', 'Invalid.', { errors: [{ field: 'text', code: 'required' }] })],
    [409, {}, error('post_not_cancelable')],
    [401, {}, error('authentication_failed')],
    [500, {}, '<html>proxy</html>'],
  ]);
  await assert.rejects(herald.posts.getPost({ id: 'pst_missing' }), (e) => e instanceof NotFoundError
    && e.message === '404 not_found: No such post. (request req_1)' && e.requestId === 'req_1');
  await assert.rejects(herald.posts.validatePost({ createPostRequest: { text: '', accountIds: new Set() } }),
    (e) => e instanceof InvalidRequestError && e.details.errors[0].field === 'text');
  await assert.rejects(herald.posts.cancelPost({ id: 'pst_1' }), ConflictError);
  await assert.rejects(herald.usage.getUsage(), AuthenticationError);
  await assert.rejects(herald.usage.getUsage(), (e) => e.constructor === HeraldApiError && e.code === 'http_500');
});

test('pages follow the cursor until has_more is false and fetch lazily', async () => {
  const { herald, seen } = standIn([
    [200, {}, JSON.stringify({ data: [{ id: 'prf_3' }, { id: 'prf_2' }], meta: { next_cursor: 'c 1', has_more: true } })],
    [200, {}, JSON.stringify({ data: [{ id: 'prf_1' }], meta: { next_cursor: null, has_more: false } })],
  ]);
  const profiles = paginate((cursor) => herald.profiles.listProfiles({ limit: 2, cursor }));
  assert.equal(seen.length, 0);
  const ids = [];
  for await (const profile of profiles) ids.push(profile.id);
  assert.deepEqual(ids, ['prf_3', 'prf_2', 'prf_1']);
  assert.deepEqual(seen.map((request) => request.url), [
    'http://127.0.0.1:1/api/v1/profiles?limit=2', 'http://127.0.0.1:1/api/v1/profiles?limit=2&cursor=c%201']);
});

test('Retry-After is seconds or an HTTP date', () => {
  assert.equal(retryAfterSeconds('7'), 7);
  assert.equal(retryAfterSeconds('Sat, 28 Nov 2026 10:00:12 GMT', Date.UTC(2026, 10, 28, 10, 0, 0)), 12);
  assert.equal(retryAfterSeconds('soon'), undefined);
  assert.equal(retryAfterSeconds(null), undefined);
});
