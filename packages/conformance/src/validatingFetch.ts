// A fetch that validates every response against the spec before the test sees it, and records which
// operations were exercised with which statuses (the per-operation report is built from that record).
// When COLLAB_CONFORMANCE_EXCHANGES names a file (the CLI's `run` sets it), every exchange is also appended
// to it as one JSON line, with the test that made it: the CLI's reporter reads the file after the run.
import { appendFileSync } from 'node:fs';
import { curlCommand } from './curl.js';
import { ResponseValidator, type Violation } from './responseValidator.js';
import { loadSpecIndex } from './specIndex.js';

/** The test running in this worker (set by the CLI's setup file, src/cli/setup.ts). */
export interface TestRef {
  /** Vitest's task id, as the reporter sees it. */
  id: string;
  /** The test file's absolute path. */
  file: string;
}

export interface Exchange {
  operationId: string | undefined;
  method: string;
  url: string;
  status: number;
  problems: string[];
  /** The same as `problems`, structured: kind, body path or header, schema keyword. */
  violations: Violation[];
  /** A curl command that repeats the request (the token masked). */
  curl: string;
  /** The test that made the request; only the file during a file's hooks. */
  test?: TestRef | { file: string } | undefined;
  /** Milliseconds from sending the request to reading the whole response. */
  ms?: number;
}

export class ContractViolation extends Error {
  constructor(readonly exchange: Exchange) {
    super(
      `${exchange.method} ${exchange.url} → ${exchange.status} breaks the contract` +
        ` (${exchange.operationId ?? 'no operation'}):\n  - ${exchange.problems.join('\n  - ')}\n  reproduce: ${exchange.curl}`,
    );
    this.name = 'ContractViolation';
  }
}

const index = loadSpecIndex();
const validator = new ResponseValidator(index);
/** Every exchange of this process, in order. */
export const exchanges: Exchange[] = [];

let currentTest: TestRef | { file: string } | undefined;
/** Names the test (or, in hooks, the file) whose requests follow. */
export function setCurrentTest(test: TestRef | { file: string } | undefined): void {
  currentTest = test;
}

/** Keeps an exchange: in `exchanges`, and in the run's JSONL file when there is one. */
export function recordExchange(exchange: Exchange): void {
  exchange.test ??= currentTest;
  exchanges.push(exchange);
  const file = process.env.COLLAB_CONFORMANCE_EXCHANGES;
  // One write per line, in append mode: the workers of a run share the file.
  if (file) appendFileSync(file, `${JSON.stringify(exchange)}\n`);
}

export function validatingFetch(baseFetch: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const requestBody =
      request.body && !request.headers.get('content-type')?.startsWith('multipart/')
        ? await request.clone().text()
        : undefined;
    const sentAt = performance.now();
    const response = await baseFetch(request);
    const text = request.method === 'HEAD' ? '' : await response.clone().text();
    const ms = Math.round((performance.now() - sentAt) * 10) / 10;
    const { operation, problems, violations } = validator.check(
      request.method,
      request.url,
      response.status,
      response.headers,
      text,
    );
    const exchange: Exchange = {
      operationId: operation?.operationId,
      method: request.method,
      url: request.url,
      status: response.status,
      problems,
      violations,
      curl: curlCommand({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: requestBody,
      }),
      ms,
    };
    recordExchange(exchange);
    if (problems.length > 0) throw new ContractViolation(exchange);
    return response;
  };
}
