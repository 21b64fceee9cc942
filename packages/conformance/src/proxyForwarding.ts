// What both proxies of this package (faultProxy.ts, validatingProxy.ts) do with a request: read its body, and
// send it on to the upstream server with the headers that still hold; the answer comes back the same way.
import type { IncomingHttpHeaders } from 'node:http';

/** A request as a proxy received it. */
export interface ProxiedRequest {
  method: string;
  /** Path and query, as sent (`/api/v4/projects/1?per_page=2`). */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An answer, upstream's or a fault's. Header names are lower case. */
export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Hop-by-hop headers, and those that no longer hold once fetch has decoded and re-framed the body. */
const DROPPED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'host',
  'upgrade',
  'proxy-connection',
]);

export async function readBody(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** The request's headers that are sent on upstream. */
export function forwardedHeaders(headers: IncomingHttpHeaders): Headers {
  const forwarded = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) forwarded.append(name, one);
  }
  return forwarded;
}

/** Whether the request's body is sent on (never on a GET or HEAD). */
export function sendsBody(request: ProxiedRequest): boolean {
  return request.method !== 'GET' && request.method !== 'HEAD' && request.body.length > 0;
}

/** Sends the request to `upstream` (a base URL without a trailing slash) and reads the whole answer. */
export async function forward(upstream: string, request: ProxiedRequest): Promise<ProxiedResponse> {
  const response = await fetch(`${upstream}${request.url}`, {
    method: request.method,
    headers: forwardedHeaders(request.headers),
    body: sendsBody(request) ? new Uint8Array(request.body) : undefined,
    redirect: 'manual',
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!DROPPED_HEADERS.has(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}
