// The typed client of the Collab API: openapi-fetch over the generated spec types, with the token, typed
// errors, retries, timeouts and page iteration a real API client needs. No Node-only imports: it runs in
// browsers too.
import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchResponse,
  type MaybeOptionalInit,
} from 'openapi-fetch';
import { type CallDefaults, type CallOptions, runCall } from './call.js';
import { CollabApiError } from './errors.js';
import { type Page, pageOf } from './pagination.js';
import type { RetryOptions } from './retry.js';
import type { components, paths } from './spec.js';

/** openapi-fetch's types that a call's result is made of, so that a consumer's declarations can name them. */
export type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
export { type CallOptions, mergeRetry } from './call.js';
export {
  type ApiErrorBody,
  CollabApiError,
  CollabTimeoutError,
  type RequestSummary,
  redactUrl,
} from './errors.js';
export { type RepositoryFileHeaders, repositoryFileHeaders } from './files.js';
export {
  type MultipartBody,
  type MultipartInput,
  type MultipartPath,
  multipart,
  toFormData,
} from './multipart.js';
export {
  type KeysetCursor,
  nextLink,
  type Page,
  type PaginationHeaders,
  pageOf,
  readPagination,
} from './pagination.js';
export {
  isRetriedMethod,
  type RetryOptions,
  rateLimitResetMs,
  retryAfterMs,
  retryDelayMs,
  retryingFetch,
} from './retry.js';
export type { components, operations, paths } from './spec.js';

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;

// As openapi-fetch's own method types, with the call options added to the second argument.
type RequiredKeys<T> = { [K in keyof T]: object extends Pick<T, K> ? never : K }[keyof T];
type CallArgs<Init> = (RequiredKeys<Init> extends undefined ? never : RequiredKeys<Init>) extends never
  ? [(Init & CallOptions & { [key: string]: unknown })?]
  : [Init & CallOptions & { [key: string]: unknown }];

/** A paths type as openapi-typescript generates it: every path names every method (absent ones `?: never`). */
export type PathsLike<Paths> = Record<
  keyof Paths,
  Partial<Record<HttpMethod, Record<string | number, unknown>>>
>;

export type CallMethod<Paths extends PathsLike<Paths>, Method extends HttpMethod> = <
  Path extends ClientPathsWithMethod<Client<Paths>, Method>,
  Init extends MaybeOptionalInit<Paths[Path], Method>,
>(
  url: Path,
  ...init: CallArgs<Init>
) => Promise<FetchResponse<NonNullable<Paths[Path][Method]>, Init, `${string}/${string}`>>;

/** An openapi-fetch client whose methods also take `retry`, `timeoutMs` and `signal`. */
export type CallClient<Paths extends PathsLike<Paths>> = Omit<
  Client<Paths>,
  Uppercase<HttpMethod> | 'request'
> & { [Method in HttpMethod as Uppercase<Method>]: CallMethod<Paths, Method> };

/** What a list call resolves to: its items, or an error with the answer. */
type ListResult<T> = { data?: T[]; error?: unknown; response: Response };

export type CollabClient = CallClient<paths> & {
  /**
   * The pages of a list, first to last, following `Link: rel="next"` (offset and keyset pagination alike):
   * each with its items, typed pagination headers and, under keyset pagination, the next cursor.
   * `options` apply to the following pages (the first call carries its own).
   */
  pages<T>(firstPage: () => Promise<ListResult<T>>, options?: CallOptions): AsyncGenerator<Page<T>>;
  /** Every item of a list, page after page (see `pages`). */
  paginate<T>(firstPage: () => Promise<ListResult<T>>, options?: CallOptions): AsyncGenerator<T>;
};

export interface CollabClientOptions {
  /**
   * Scheme, host and port of the service, e.g. `http://localhost:3000` (the client adds `/api/v4`); the API
   * root `http://localhost:3000/api/v4` is read as the same.
   */
  baseUrl: string;
  /** A personal, project or group access token, sent as the PRIVATE-TOKEN header. */
  token?: string | undefined;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch | undefined;
  /** Retries of 429/502/503/504 for idempotent methods (default `{ retries: 2 }`); `false` turns them off. */
  retry?: RetryOptions | false | undefined;
  /** The default timeout of every call, in milliseconds (default: none). */
  timeoutMs?: number | undefined;
  /** Extra headers sent with every request. */
  headers?: Record<string, string> | undefined;
}

/**
 * The service's origin from a base URL as users give it: `http://host:3000`, or the API root the server prints
 * (`http://host:3000/api/v4`, `.../api/scim/v2`), with or without trailing slashes.
 */
export function serviceOrigin(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/api\/(v4|scim\/v2)$/, '');
}

export function apiRoot(baseUrl: string): string {
  return `${serviceOrigin(baseUrl)}/api/v4`;
}

export function createCollabClient(options: CollabClientOptions): CollabClient {
  const root = apiRoot(options.baseUrl);
  const headers = { ...options.headers, ...(options.token ? { 'PRIVATE-TOKEN': options.token } : {}) };
  const defaults = callDefaults(options);
  const client = withCallOptions(createClient<paths>({ baseUrl: root, headers }), defaults);

  // Each following page is one call with the client's headers; a `Link` to another origin is refused
  // rather than sent the token.
  async function nextPage<T>(url: string, callOptions: CallOptions): Promise<ListResult<T>> {
    if (new URL(url).origin !== new URL(root).origin) {
      throw new Error(`refusing to follow a Link to another origin: ${new URL(url).origin}`);
    }
    return runCall(defaults, callOptions, { method: 'GET', url }, async (signal, fetch) => {
      const response = await fetch(url, { headers, signal: signal ?? null });
      const body: unknown = await response.json().catch(() => undefined);
      return response.ok ? { data: body as T[], response } : { error: body, response };
    });
  }

  async function* pages<T>(
    firstPage: () => Promise<ListResult<T>>,
    callOptions: CallOptions = {},
  ): AsyncGenerator<Page<T>> {
    let result = await firstPage();
    for (;;) {
      if (result.error !== undefined || !result.response.ok) {
        throw CollabApiError.from(result.response, result.error);
      }
      if (!Array.isArray(result.data)) throw new TypeError('pages: the call did not answer a list');
      const page = pageOf(result.data, result.response);
      yield page;
      if (!page.next) return;
      result = await nextPage<T>(page.next, callOptions);
    }
  }

  async function* paginate<T>(firstPage: () => Promise<ListResult<T>>, callOptions?: CallOptions) {
    for await (const page of pages(firstPage, callOptions)) yield* page.items;
  }

  return Object.assign(client, { pages, paginate });
}

/** The SCIM paths: served under `{baseUrl}/api/scim/v2`, not `/api/v4`. */
export type ScimPaths = Pick<paths, '/groups/{group_path}/Users' | '/groups/{group_path}/Users/{id}'>;
export type ScimClient = CallClient<ScimPaths>;
export type ScimErrorBody = components['schemas']['ScimError'];

export interface ScimClientOptions {
  /** Scheme, host and port of the service (the client adds `/api/scim/v2`; a URL ending in it is the same). */
  baseUrl: string;
  /** The group's SCIM token, sent as `Authorization: Bearer`. */
  token: string;
  fetch?: typeof fetch | undefined;
  retry?: RetryOptions | false | undefined;
  timeoutMs?: number | undefined;
}

/** A client of the SCIM provisioning API, which has its own root and its own bearer token. */
export function createScimClient(options: ScimClientOptions): ScimClient {
  const client = createClient<ScimPaths>({
    baseUrl: `${serviceOrigin(options.baseUrl)}/api/scim/v2`,
    headers: { Authorization: `Bearer ${options.token}` },
  });
  return withCallOptions(client, callDefaults(options));
}

/**
 * Unwraps an openapi-fetch result: the data, or a thrown CollabApiError carrying the status, the `Error`
 * body and the request. `const branch = await unwrap(client.GET('/projects/{id}/repository/branches/{branch}', …))`.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw CollabApiError.from(response, error);
  return data as T;
}

function callDefaults(options: { fetch?: typeof fetch; retry?: RetryOptions | false; timeoutMs?: number }) {
  // Read the global fetch at call time, so a fetch installed after the client was made is used.
  const fetch: typeof globalThis.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return { fetch, retry: options.retry ?? {}, timeoutMs: options.timeoutMs } satisfies CallDefaults;
}

// Replaces the client's method functions by ones that take the call options and run each call through
// runCall (retries, timeout, signal, remembering the request for errors).
function withCallOptions<Paths extends PathsLike<Paths>>(
  client: Client<Paths>,
  defaults: CallDefaults,
): CallClient<Paths> {
  const { request: _request, ...rest } = client;
  const wrapped: Record<string, unknown> = { ...rest };
  for (const method of METHODS) {
    const original = client[method] as (url: string, init: Record<string, unknown>) => Promise<unknown>;
    wrapped[method] = (url: string, init: CallOptions & { fetch?: typeof fetch } = {}) => {
      const { retry, timeoutMs, signal, fetch, ...openapiInit } = init;
      const callDefaults = fetch ? { ...defaults, fetch } : defaults;
      return runCall(callDefaults, { retry, timeoutMs, signal }, { method, url }, (callSignal, callFetch) =>
        original(url, { ...openapiInit, signal: callSignal, fetch: callFetch }),
      );
    };
  }
  return wrapped as CallClient<Paths>;
}
