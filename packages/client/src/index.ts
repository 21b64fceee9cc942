// The typed client of the Collab API: openapi-fetch over the generated spec types, with the token, typed
// errors, retries and page iteration a real API client needs.
import type { paths } from '@collab/spec/schema';
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { CollabApiError } from './errors.js';
import { nextLink } from './pagination.js';
import { type RetryOptions, retryingFetch } from './retry.js';

export type { components, operations, paths } from '@collab/spec/schema';
export { type ApiErrorBody, CollabApiError } from './errors.js';
export { nextLink } from './pagination.js';
export { type RetryOptions, retryAfterMs, retryingFetch } from './retry.js';

export interface CollabClientOptions {
  /** Scheme, host and port of the service, e.g. `http://localhost:3000` (the client adds `/api/v4`). */
  baseUrl: string;
  /** A personal access token, sent as the PRIVATE-TOKEN header. */
  token?: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Retries of 429/502/503/504; `false` turns them off. */
  retry?: RetryOptions | false;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

export type CollabClient = Client<paths> & {
  /** Every item of a list operation, page after page, following the `Link: rel="next"` header. */
  paginate<T>(
    firstPage: () => Promise<{ data?: T[]; error?: unknown; response: Response }>,
  ): AsyncGenerator<T>;
};

export function apiRoot(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/v4`;
}

export function createCollabClient(options: CollabClientOptions): CollabClient {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const clientFetch = options.retry === false ? baseFetch : retryingFetch(baseFetch, options.retry);
  const clientOptions: ClientOptions = {
    baseUrl: apiRoot(options.baseUrl),
    fetch: clientFetch,
    headers: { ...options.headers, ...(options.token ? { 'PRIVATE-TOKEN': options.token } : {}) },
  };
  const client = createClient<paths>(clientOptions);

  async function* paginate<T>(
    firstPage: () => Promise<{ data?: T[]; error?: unknown; response: Response }>,
  ): AsyncGenerator<T> {
    let page = await firstPage();
    for (;;) {
      if (page.error !== undefined || !page.data) {
        throw new CollabApiError(page.response.status, page.error as never, 'GET', page.response.url);
      }
      yield* page.data;
      const next = nextLink(page.response.headers.get('Link'));
      if (!next) return;
      const response = await clientFetch(next, { headers: clientOptions.headers as Record<string, string> });
      page = response.ok
        ? { data: (await response.json()) as T[], response }
        : { error: await response.json().catch(() => undefined), response };
    }
  }

  return Object.assign(client, { paginate });
}

/** The SCIM paths: served under `{baseUrl}/api/scim/v2`, not `/api/v4`. */
export type ScimPaths = Pick<paths, '/groups/{group_path}/Users' | '/groups/{group_path}/Users/{id}'>;

export interface ScimClientOptions {
  /** Scheme, host and port of the service (the client adds `/api/scim/v2`). */
  baseUrl: string;
  /** The group's SCIM token, sent as `Authorization: Bearer`. */
  token: string;
  fetch?: typeof fetch;
  retry?: RetryOptions | false;
}

/** A client of the SCIM provisioning API, which has its own root and its own bearer token. */
export function createScimClient(options: ScimClientOptions): Client<ScimPaths> {
  const baseFetch = options.fetch ?? globalThis.fetch;
  return createClient<ScimPaths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/api/scim/v2`,
    fetch: options.retry === false ? baseFetch : retryingFetch(baseFetch, options.retry),
    headers: { Authorization: `Bearer ${options.token}` },
  });
}

/**
 * Unwraps an openapi-fetch result: the data, or a thrown CollabApiError carrying the status and Error body.
 * `const branch = await unwrap(client.GET('/projects/{id}/repository/branches/{branch}', …))`.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    throw new CollabApiError(response.status, error as never, 'request', response.url);
  }
  return data as T;
}
