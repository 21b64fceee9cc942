// A fetch that retries the answers worth retrying (429, 502, 503, 504), waiting as the server asks
// (Retry-After, RateLimit-Reset) or backing off. Only idempotent methods are retried unless the caller opts
// in: a POST or PATCH sent twice may create or change twice.
export interface RetryOptions {
  /** How many times a request is sent again at most (default 2, so at most 3 attempts). */
  retries?: number | undefined;
  /** The first wait when the server names none, doubled each time (default 250 ms). */
  baseDelayMs?: number | undefined;
  /**
   * The longest wait the client accepts (default 30 s). Backoff is capped at it; when the server asks for a
   * longer wait, the client does not retry and hands back the server's answer.
   */
  maxDelayMs?: number | undefined;
  /** Retry POST and PATCH too (default false: they are not idempotent). */
  nonIdempotent?: boolean | undefined;
}

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE']);

/** Whether a request with this method may be sent again under these options. */
export function isRetriedMethod(method: string, options: RetryOptions = {}): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase()) || options.nonIdempotent === true;
}

/** Retry-After is either seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header?.trim()) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * RateLimit-Reset: GitLab sends the Unix time (seconds) the quota resets at; the IETF draft sends the seconds
 * until then. A value of 10^9 or more (September 2001 as a Unix time, 31 years as a wait) is read as a time.
 */
export function rateLimitResetMs(header: string | null, now = Date.now()): number | undefined {
  if (!header?.trim()) return undefined;
  const value = Number(header);
  if (!Number.isFinite(value) || value < 0) return undefined;
  return value >= 1e9 ? Math.max(0, value * 1000 - now) : value * 1000;
}

/** How long to wait before attempt `attempt + 1`: the server's word first, else exponential backoff. */
export function retryDelayMs(response: Response, attempt: number, options: RetryOptions = {}): number {
  const named =
    retryAfterMs(response.headers.get('Retry-After')) ??
    rateLimitResetMs(response.headers.get('RateLimit-Reset'));
  if (named !== undefined) return named;
  return Math.min(options.maxDelayMs ?? 30_000, (options.baseDelayMs ?? 250) * 2 ** attempt);
}

export function retryingFetch(baseFetch: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const retries = options.retries ?? 2;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  return async (input, init) => {
    const request = new Request(input, init);
    if (retries <= 0 || !isRetriedMethod(request.method, options)) return baseFetch(request);
    for (let attempt = 0; ; attempt++) {
      request.signal.throwIfAborted();
      // A body can be read once: every attempt but the last sends a copy.
      const last = attempt >= retries;
      const response = await baseFetch(last ? request : request.clone());
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      const wait = retryDelayMs(response, attempt, options);
      if (wait > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}

/** Waits, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
