export * from './generated/index.js';
export { Herald, type HeraldOptions } from './herald.js';
export * from './errors.js';
export { paginate, type Page } from './pagination.js';
export { retryAfterSeconds, retryingFetch, type RetryOptions } from './retry.js';
export { signWebhook, verifyWebhook, WebhookVerificationError, type VerifyOptions, type WebhookRefusal } from './webhooks.js';
