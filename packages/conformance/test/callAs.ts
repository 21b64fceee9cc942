// One request to the API as one of the config's roles, anonymously, or with a token no server issued: the
// role matrix every area's file walks. Every response goes through target.fetch, which validates it against
// the spec (status, headers, body).
import { type Role, RUN, type Target } from '../src/index.js';

export type Caller = Role | 'anonymous' | 'invalid';

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Query parameters; a string is sent as it is (repeated names, raw encodings). */
  query?: string | Record<string, string>;
  /** At most one body: JSON, a form, or multipart. */
  json?: Record<string, unknown>;
  form?: Record<string, string>;
  multipart?: FormData;
  /** Headers of the request's own (`Sudo`, another token carrier), over the caller's token header. */
  headers?: Record<string, string>;
}

/** A request as `caller` to `path` below /api/v4, or to a whole URL (one a Link header gave). */
export async function callAs<T = unknown>(
  target: Target,
  caller: Caller,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const query =
    typeof options.query === 'string' ? options.query : new URLSearchParams(options.query ?? {}).toString();
  const base = path.startsWith('http') ? path : `${target.config.baseUrl}/api/v4${path}`;
  const url = query ? `${base}${base.includes('?') ? '&' : '?'}${query}` : base;
  const headers: Record<string, string> = {};
  if (caller === 'invalid') headers['PRIVATE-TOKEN'] = `no-such-token-${RUN}`;
  else if (caller !== 'anonymous') headers['PRIVATE-TOKEN'] = target.config.tokens[caller];
  Object.assign(headers, options.headers);
  let body: string | FormData | undefined;
  if (options.json) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.multipart) {
    body = options.multipart;
  }
  const response = await target.fetch(url, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : undefined) as T,
    headers: response.headers,
  };
}
