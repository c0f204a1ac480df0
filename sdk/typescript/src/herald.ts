import { randomUUID } from 'node:crypto';
import {
  AccountsApi, CommentsApi, Configuration, ConnectSessionsApi, LogsApi, PostsApi, ProfilesApi, UsageApi, WebhooksApi,
  type CreatePostRequest, type PostBatchEnvelope, type PostBatchRequestItem, type PostEnvelope,
} from './generated/index.js';
import { errorFromBody } from './errors.js';
import { retryAfterSeconds, retryingFetch, type RetryOptions } from './retry.js';

export interface HeraldOptions extends RetryOptions {
  /** The API's base URL, e.g. https://herald.example.com/api/v1 (/api/v1 is added when there is no path). */
  baseUrl: string;
  /** An API key (sk_test_... or sk_live_...) or an OAuth access token. */
  apiKey: string;
  /** The fetch to send with (globalThis.fetch). */
  fetchApi?: typeof fetch;
}

/**
 * A client of one Herald API with one API key: the API classes generated from Herald's OpenAPI document, one per
 * tag, sending the key, retrying 429 and 503 after their Retry-After, and throwing error answers as HeraldApiError
 * subclasses by their code. createPost and createPostBatch fill in idempotency keys.
 */
export class Herald {
  readonly profiles: ProfilesApi;
  readonly accounts: AccountsApi;
  readonly connectSessions: ConnectSessionsApi;
  readonly posts: PostsApi;
  readonly comments: CommentsApi;
  readonly webhooks: WebhooksApi;
  readonly logs: LogsApi;
  readonly usage: UsageApi;

  constructor(options: HeraldOptions) {
    const base = options.baseUrl.replace(/\/+$/, '');
    const configuration = new Configuration({
      basePath: new URL(base).pathname === '/' ? `${base}/api/v1` : base,
      headers: { Authorization: `Bearer ${options.apiKey}`, 'User-Agent': 'herald-sdk-typescript' },
      fetchApi: retryingFetch(options.fetchApi ?? globalThis.fetch, options),
      middleware: [{
        post: async ({ response }) => {
          if (response.ok) return response;
          const text = await response.text();
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined; // not JSON (a proxy's page, say): the error is known by its status only
          }
          throw errorFromBody(response.status, body, retryAfterSeconds(response.headers.get('Retry-After')));
        },
      }],
    });
    this.profiles = new ProfilesApi(configuration);
    this.accounts = new AccountsApi(configuration);
    this.connectSessions = new ConnectSessionsApi(configuration);
    this.posts = new PostsApi(configuration);
    this.comments = new CommentsApi(configuration);
    this.webhooks = new WebhooksApi(configuration);
    this.logs = new LogsApi(configuration);
    this.usage = new UsageApi(configuration);
  }

  /**
   * POST /posts with a new random Idempotency-Key unless one is given: this call's retries send the same key, so
   * they never create the post twice. To retry across calls (after a crash, say), keep a key of your own.
   */
  createPost(post: CreatePostRequest, idempotencyKey: string = randomUUID()): Promise<PostEnvelope> {
    return this.posts.createPost({ idempotencyKey, createPostRequest: post });
  }

  /** POST /posts/batch, giving every post without one a new random idempotency key. */
  createPostBatch(posts: Array<Omit<PostBatchRequestItem, 'idempotencyKey'> & { idempotencyKey?: string }>):
    Promise<PostBatchEnvelope> {
    const items = posts.map((post) => ({ ...post, idempotencyKey: post.idempotencyKey ?? randomUUID() }));
    return this.posts.createPostBatch({ postBatchRequest: { posts: items } });
  }
}
