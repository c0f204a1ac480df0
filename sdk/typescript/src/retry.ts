/** Retries of 429 and 503 answers, honouring Retry-After. */

export interface RetryOptions {
  /** How many times a request is sent again at most (2). */
  maxRetries?: number;
  /** A longer wait is not waited out: the caller gets the error and its retryAfter (30 s). */
  maxRetryDelaySeconds?: number;
  /** How the wait is made (tests pass one that records it). */
  sleep?: (seconds: number) => Promise<void>;
}

/** A Retry-After value (delay-seconds or an HTTP date) in seconds; undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const when = Date.parse(text);
  return Number.isNaN(when) ? undefined : Math.max(0, Math.round((when - now) / 1000));
}

/**
 * A fetch that sends a request again on 429 and 503, after its Retry-After (or 1, 2, 4... seconds without one), at
 * most maxRetries times and never waiting longer than maxRetryDelaySeconds. Safe: a 429 or 503 changed nothing, and
 * POST /posts carries the same Idempotency-Key every time (the generated client's bodies are strings, so resendable).
 */
export function retryingFetch(fetchApi: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const maxRetries = options.maxRetries ?? 2;
  const maxDelay = options.maxRetryDelaySeconds ?? 30;
  const sleep = options.sleep ?? ((seconds: number) => new Promise<void>((done) => setTimeout(done, seconds * 1000)));
  return async (input, init) => {
    for (let retry = 1; ; retry++) {
      const response = await fetchApi(input, init);
      if (response.status !== 429 && response.status !== 503) return response;
      const delay = retryAfterSeconds(response.headers.get('Retry-After')) ?? 2 ** (retry - 1);
      if (retry > maxRetries || delay > maxDelay) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}
