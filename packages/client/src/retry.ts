// A fetch that retries the answers worth retrying (429, 502, 503, 504), honouring Retry-After.
export interface RetryOptions {
  /** How many times a request is sent again at most (default 2). */
  retries?: number;
  /** The first wait when the server names none, doubled each time (default 250 ms). */
  baseDelayMs?: number;
  /** The longest wait the client accepts (default 30 s). */
  maxDelayMs?: number;
}

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);

/** Retry-After is either seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function retryingFetch(baseFetch: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const retries = options.retries ?? 2;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  return async (input, init) => {
    // A Request's body can be read once: keep a pristine copy for every new attempt.
    const original = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await baseFetch(original.clone());
      if (attempt >= retries || !RETRIED_STATUSES.has(response.status)) return response;
      const wait = Math.min(
        maxDelayMs,
        retryAfterMs(response.headers.get('Retry-After')) ?? baseDelayMs * 2 ** attempt,
      );
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
}
