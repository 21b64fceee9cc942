// A validating proxy: forwards every request to an upstream server unchanged and checks the exchange against
// the spec on the way back — the request (an operation of the spec, its required query parameters, a
// documented content type, a JSON body that parses and has the required fields) and the response (status,
// content type, headers and body, src/responseValidator.ts). Each violation is handed to `onViolation` with
// the operation and a curl command that repeats the request against the upstream server.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { curlCommand } from './curl.js';
import {
  forward,
  forwardedHeaders,
  type ProxiedRequest,
  type ProxiedResponse,
  readBody,
  sendsBody,
} from './proxyForwarding.js';
import { requestCases } from './requestCases.js';
import { ResponseValidator } from './responseValidator.js';
import {
  findOperation,
  type JsonObject,
  loadSpecIndex,
  type OperationEntry,
  type SpecIndex,
} from './specIndex.js';

export interface ProxyViolation {
  /** `request` or `response`: which side breaks the spec. */
  side: 'request' | 'response';
  operationId: string | undefined;
  method: string;
  /** The upstream URL the request went to. */
  url: string;
  status: number;
  problems: string[];
  curl: string;
}

/** An exchange the spec says nothing about: a path outside it (`/docs`), or an operation --only left out. */
export interface UncheckedExchange {
  /** `outside the spec`, or `not selected` by --only. */
  reason: 'outside the spec' | 'not selected';
  operationId: string | undefined;
  method: string;
  url: string;
  status: number;
}

export interface ValidatingProxy {
  url: string;
  port: number;
  /** Exchanges forwarded, violations found, and exchanges outside the spec (or --only), so far. */
  counts: { exchanges: number; violations: number; outside: number; notSelected: number };
  close(): Promise<void>;
}

export interface ValidatingProxyOptions {
  upstream: string;
  /** 0 for any free port. */
  port: number;
  host?: string;
  onViolation(violation: ProxyViolation): void;
  /** An exchange not checked: outside the spec, or not selected. */
  onUnchecked?(exchange: UncheckedExchange): void;
  /** Only the operations this selects are checked (`--only`, src/cli/options.ts). */
  only?: ((entry: OperationEntry) => boolean) | undefined;
  onExchange?(exchange: {
    operationId: string | undefined;
    method: string;
    url: string;
    status: number;
  }): void;
}

/** What a request breaks of the spec: the operation, required query parameters, content type, JSON body. */
export function requestProblems(
  index: SpecIndex,
  method: string,
  url: string,
  contentType: string | undefined,
  body: Buffer,
): string[] {
  const entry = findOperation(index, method, url);
  if (!entry) return [`${method} ${new URL(url).pathname} is not an operation of the spec`];
  const cases = requestCases(index, () => ({ publicProject: '', namespace: '' }));
  const problems: string[] = [];
  const query = new URL(url).searchParams;
  for (const parameter of cases.parametersOf(entry))
    if (parameter.in === 'query' && parameter.required === true && !query.has(String(parameter.name)))
      problems.push(`required query parameter ${String(parameter.name)} is missing`);
  if (body.length === 0) return problems;
  const media = cases.requestMedia(entry);
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const documented = media.find((m) => m.type === type);
  if (!documented) {
    problems.push(
      `request content type "${type}" is not documented (${media.map((m) => m.type).join(', ') || 'no body'})`,
    );
    return problems;
  }
  if (type !== 'application/json') return problems;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return [...problems, 'request body is not JSON'];
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return [...problems, 'request body is not a JSON object'];
  for (const name of (documented.schema.required as string[] | undefined) ?? [])
    if ((parsed as JsonObject)[name] === undefined)
      problems.push(`request body lacks the required field ${name}`);
  return problems;
}

export async function startValidatingProxy(options: ValidatingProxyOptions): Promise<ValidatingProxy> {
  const upstream = options.upstream.replace(/\/+$/, '');
  const index = loadSpecIndex();
  const validator = new ResponseValidator(index);
  const counts = { exchanges: 0, violations: 0, outside: 0, notSelected: 0 };

  async function handle(req: IncomingMessage): Promise<ProxiedResponse> {
    const request: ProxiedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body: await readBody(req),
    };
    const { method, body } = request;
    const url = `${upstream}${request.url}`;
    const answer = await forward(upstream, request);
    const textual = !/^(multipart|application\/octet-stream|image|application\/(gzip|zip))/.test(
      req.headers['content-type'] ?? '',
    );
    const curl = curlCommand({
      method,
      url,
      headers: forwardedHeaders(req.headers),
      body: sendsBody(request) && textual ? body.toString('utf8') : undefined,
    });
    const check = validator.check(
      method,
      url,
      answer.status,
      new Headers(answer.headers),
      method === 'HEAD' ? '' : answer.body.toString('utf8'),
    );
    const operationId = check.operation?.operationId;
    counts.exchanges++;
    options.onExchange?.({ operationId, method, url, status: answer.status });
    // A path the spec does not describe (the docs, a health check, another API) is none of its business; a
    // method the spec lacks on a path it describes is (the server must refuse it as documented).
    const entry = findOperation(index, method, url);
    const path = new URL(url).pathname;
    const described = entry !== undefined || index.operations.some((o) => o.pattern.test(path));
    if (!described || (entry && options.only && !options.only(entry))) {
      const reason = described ? 'not selected' : 'outside the spec';
      if (described) counts.notSelected++;
      else counts.outside++;
      options.onUnchecked?.({ reason, operationId, method, url, status: answer.status });
      return answer;
    }
    const sides: [ProxyViolation['side'], string[]][] = [
      [
        'request',
        check.operation ? requestProblems(index, method, url, req.headers['content-type'], body) : [],
      ],
      ['response', check.problems],
    ];
    for (const [side, problems] of sides) {
      if (problems.length === 0) continue;
      counts.violations++;
      options.onViolation({ side, operationId, method, url, status: answer.status, problems, curl });
    }
    return answer;
  }

  const server: Server = createServer((req, res) => {
    handle(req).then(
      (answer) => {
        res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
        res.end(req.method === 'HEAD' ? undefined : answer.body);
      },
      (error: unknown) => {
        // Upstream unreachable: a 502 the client sees, never a hang.
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`collab-conformance proxy: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    counts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
