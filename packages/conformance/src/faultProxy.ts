// An HTTP proxy that passes requests to an upstream server and lets a fault rewrite the answers: the tests
// of the tool put it between `collab-conformance` and the reference server to check that each kind of
// broken server is reported (a dropped field, a wrong status, a skipped auth check...).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forward, type ProxiedRequest, type ProxiedResponse, readBody } from './proxyForwarding.js';

export type { ProxiedRequest, ProxiedResponse } from './proxyForwarding.js';

export interface FaultContext {
  /** Sends a (changed) request upstream: a fault that skips an auth check asks with a token of its own. */
  upstream(request: ProxiedRequest): Promise<ProxiedResponse>;
}

/**
 * Rewrites the answer to a request: returns the answer to send instead, or undefined to pass upstream's
 * unchanged (the request did not match).
 */
export type Fault = (
  request: ProxiedRequest,
  response: ProxiedResponse,
  context: FaultContext,
) => ProxiedResponse | undefined | Promise<ProxiedResponse | undefined>;

export interface FaultProxy {
  /** `http://127.0.0.1:PORT`: the base URL to give the client under test. */
  url: string;
  /** Every request a fault rewrote, in order. */
  injected: { method: string; url: string; status: number }[];
  /** Replaces the fault (undefined passes everything through). */
  setFault(fault: Fault | undefined): void;
  close(): Promise<void>;
}

export async function startFaultProxy(options: { upstream: string; fault?: Fault }): Promise<FaultProxy> {
  const upstream = options.upstream.replace(/\/+$/, '');
  let fault = options.fault;
  const injected: FaultProxy['injected'] = [];
  const context: FaultContext = { upstream: (request) => forward(upstream, request) };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const request: ProxiedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: await readBody(req),
      };
      const original = await forward(upstream, request);
      const rewritten = fault ? await fault(request, original, context) : undefined;
      if (rewritten) injected.push({ method: request.method, url: request.url, status: rewritten.status });
      const answer = rewritten ?? original;
      const body = request.method === 'HEAD' ? undefined : answer.body;
      res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
      res.end(body);
    })().catch((error: unknown) => {
      // The proxy's own failure (upstream down): a 502 the client sees, never a hang.
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`fault proxy: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  // Longer than any client's idle keep-alive (undici's is 4 s, Node's server default 5 s): a client must never
  // send a request on a connection the proxy is closing at that moment (ECONNRESET).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    injected,
    setFault(next) {
      fault = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// --- Helpers for writing faults ---------------------------------------------------------------------------

/** The answer with its JSON body changed by `edit` (which may change the value in place and return nothing). */
export function withJson(response: ProxiedResponse, edit: (body: unknown) => unknown): ProxiedResponse {
  const parsed = JSON.parse(response.body.toString('utf8')) as unknown;
  const changed = edit(parsed);
  return { ...response, body: Buffer.from(JSON.stringify(changed === undefined ? parsed : changed)) };
}

/** Whether a request is `method` to a path (below the proxy's root, query left out) matching `path`. */
export function matches(request: ProxiedRequest, method: string, path: RegExp): boolean {
  return request.method === method && path.test(request.url.split('?')[0] ?? '');
}
