// One call of the client: its fetch (retries, remembering which request each answer came from) and its
// signal (the caller's combined with the timeout). The typed methods and the page iterators both run
// through here, so every request gets the same policy.
import { CollabTimeoutError, type RequestSummary, rememberRequest, summarize } from './errors.js';
import { type RetryOptions, retryingFetch } from './retry.js';

/** Options every call accepts next to openapi-fetch's own; they override the client's. */
export interface CallOptions {
  /** This call's retries: `false` turns them off; `{ nonIdempotent: true }` lets a POST or PATCH retry. */
  retry?: RetryOptions | false | undefined;
  /** Rejects the call with a CollabTimeoutError after this many milliseconds, retries and waits included. */
  timeoutMs?: number | undefined;
  /** Aborts the call, a pending retry wait included; the call rejects with the signal's reason. */
  signal?: AbortSignal | null | undefined;
}

/** The client-wide settings a call starts from. */
export interface CallDefaults {
  fetch: typeof fetch;
  retry: RetryOptions | false;
  timeoutMs: number | undefined;
}

export function mergeRetry(client: RetryOptions | false, call: RetryOptions | false | undefined) {
  if (call === undefined) return client;
  if (call === false || client === false) return call;
  return { ...client, ...call };
}

export async function runCall<R>(
  defaults: CallDefaults,
  options: CallOptions,
  planned: RequestSummary,
  run: (signal: AbortSignal | undefined, callFetch: typeof fetch) => Promise<R>,
): Promise<R> {
  let current = planned;
  const trackingFetch: typeof fetch = async (input, init) => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    current = summarize(request);
    const response = await defaults.fetch(request);
    rememberRequest(response, request);
    return response;
  };
  const retry = mergeRetry(defaults.retry, options.retry);
  const callFetch = retry === false ? trackingFetch : retryingFetch(trackingFetch, retry);
  const callerSignal = options.signal ?? undefined;
  const timeoutMs = options.timeoutMs ?? defaults.timeoutMs;
  if (timeoutMs === undefined) return run(callerSignal, callFetch);

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new CollabTimeoutError(timeoutMs, current)), timeoutMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout.signal]) : timeout.signal;
  try {
    return await run(signal, callFetch);
  } catch (error) {
    // Whatever the aborted fetch or body read threw, the caller learns why the call stopped.
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timeout.signal.aborted) throw timeout.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
