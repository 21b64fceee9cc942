// What a failed call throws: the API's error answer (CollabApiError) or the call's own timeout
// (CollabTimeoutError). Both name the request, never with its token.
import type { components } from './spec.js';

export type ApiErrorBody = components['schemas']['Error'];

/** The request a failure belongs to: the method and the URL, with any token query parameter removed. */
export interface RequestSummary {
  method: string;
  url: string;
}

const TOKEN_PARAMETERS = ['private_token', 'access_token', 'job_token'];

/** The URL without the token query parameters GitLab accepts (the client sends its token as a header). */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  for (const name of TOKEN_PARAMETERS) {
    parsed.searchParams.delete(name);
  }
  return parsed.href;
}

export function summarize(request: Request): RequestSummary {
  return { method: request.method, url: redactUrl(request.url) };
}

// The request each answer came from, so `unwrap` and the page iterators can name it in their errors:
// openapi-fetch hands back the Response only.
const requestOfResponse = new WeakMap<Response, RequestSummary>();

export function rememberRequest(response: Response, request: Request): void {
  requestOfResponse.set(response, summarize(request));
}

export function requestOf(response: Response): RequestSummary {
  return requestOfResponse.get(response) ?? { method: 'GET', url: redactUrl(response.url) };
}

/** The API answered with an error status. `Body` is the `Error` schema (the SCIM client's: `ScimError`). */
export class CollabApiError<Body extends object = ApiErrorBody> extends Error {
  override readonly name = 'CollabApiError';
  constructor(
    /** The HTTP status of the answer. */
    readonly status: number,
    /** The `Error` body of the answer, when it had one. */
    readonly body: Body | undefined,
    /** The request that failed (its URL without token parameters). */
    readonly request: RequestSummary,
    /** The answer's headers (Retry-After, RateLimit-*, …). */
    readonly headers: Headers = new Headers(),
  ) {
    super(`${request.method} ${request.url} answered ${status}: ${describe(body)}`);
  }

  /** Builds the error from an openapi-fetch result's response and error body. */
  static from<Body extends object = ApiErrorBody>(response: Response, body: unknown): CollabApiError<Body> {
    return new CollabApiError<Body>(
      response.status,
      asErrorBody<Body>(body),
      requestOf(response),
      response.headers,
    );
  }
}

/** The call took longer than its timeout (`timeoutMs`), retries and their waits included. */
export class CollabTimeoutError extends Error {
  override readonly name = 'CollabTimeoutError';
  constructor(
    readonly timeoutMs: number,
    readonly request: RequestSummary,
  ) {
    super(`${request.method} ${request.url} timed out after ${timeoutMs} ms`);
  }
}

// An error answer's body is GitLab's `Error` object; anything else (text, HTML from a proxy) is not kept.
function asErrorBody<Body extends object>(body: unknown): Body | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : undefined;
}

function describe(body: object | undefined): string {
  if (!body) return 'no body';
  if ('detail' in body && typeof body.detail === 'string') return body.detail; // a SCIM error
  if (!('message' in body || 'error' in body)) return JSON.stringify(body);
  return describeError(body as ApiErrorBody);
}

function describeError(body: ApiErrorBody): string {
  if (typeof body.message === 'string') return body.message;
  if (body.message) return JSON.stringify(body.message);
  return [body.error, body.error_description].filter(Boolean).join(': ') || 'no message';
}
