// The TypeScript SDK against a running Herald (system-tests' SdkTypeScriptIT runs it against the suite):
// HERALD_BASE_URL and HERALD_API_KEY (a test-mode key) come from the environment. Creates a profile, a sandbox account
// in it and three posts, pages through the posts two at a time, and verifies a webhook delivery received on
// 127.0.0.1. Prints one line per check and exits non-zero on the first failure.
import { createServer } from 'node:http';
import { Herald, NotFoundError, WebhookVerificationError, paginate, verifyWebhook } from '../dist/index.js';

function check(name, condition) {
  if (!condition) {
    console.log(`FAILED: ${name}`);
    process.exit(1);
  }
  console.log(`ok: ${name}`);
}

const herald = new Herald({ baseUrl: process.env.HERALD_BASE_URL, apiKey: process.env.HERALD_API_KEY });
const profile = (await herald.profiles.createProfile({ createProfileRequest: { name: 'SDK TypeScript' } })).data;
const account = (await herald.accounts.createSandboxAccount({
  createSandboxAccountRequest: { platform: 'linkedin', profileId: profile.id, username: 'brand' },
})).data;
check('a sandbox account in a new profile', account.profileId === profile.id);
const created = [];
for (let i = 0; i < 3; i++) {
  created.push((await herald.createPost({ text: `From the TypeScript SDK ${i}`, accountIds: new Set([account.id]) })).data);
}
check('three posts queued', created.every((post) => post.status === 'queued'));

let pages = 0;
const listed = [];
for await (const post of paginate((cursor) => {
  pages++;
  return herald.posts.listPosts({ profileId: profile.id, limit: 2, cursor });
})) {
  listed.push(post.id);
}
check('every post, newest first, across two pages',
  JSON.stringify(listed) === JSON.stringify(created.map((post) => post.id).reverse()) && pages === 2);

try {
  await herald.posts.getPost({ id: 'pst_0123456789abcdef01234567' });
  check('an unknown post is NotFoundError', false);
} catch (e) {
  check('an unknown post is NotFoundError', e instanceof NotFoundError && e.code === 'not_found');
}

let delivered;
const arrived = new Promise((resolve) => { delivered = resolve; });
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk)).on('end', () => {
    const body = Buffer.concat(chunks);
    // The posts above may publish meanwhile, and their post.published deliveries reach the same receiver.
    if (body.includes('"type":"webhook.test"')) {
      delivered({ headers: req.headers, body });
    }
    res.writeHead(204).end();
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
let delivery;
let secret;
try {
  const endpoint = (await herald.webhooks.createWebhookEndpoint({
    createWebhookEndpointRequest: {
      url: `http://127.0.0.1:${server.address().port}/webhooks/herald`, events: new Set(['post.published']),
    },
  })).data;
  secret = endpoint.secret;
  await herald.webhooks.sendTestWebhook({ id: endpoint.id, body: {} });
  delivery = await Promise.race([arrived, new Promise((_, reject) =>
    setTimeout(() => reject(new Error('no webhook delivery within 30 s')), 30_000))]);
} finally {
  server.close();
}
check('a webhook delivery verifies with the endpoint\'s secret',
  verifyWebhook(delivery.body, delivery.headers, secret) === delivery.headers['webhook-id']);
try {
  verifyWebhook(Buffer.from(delivery.body.toString().replace('webhook.test', 'post.published')), delivery.headers, secret);
  check('a tampered body is refused', false);
} catch (e) {
  check('a tampered body is refused', e instanceof WebhookVerificationError && e.reason === 'no_matching_signature');
}
console.log('sdk-typescript suite check: all passed');
