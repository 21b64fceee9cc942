// `collab-conformance diff`: one seeded sequence of requests (the fuzz's plan, src/fuzz/engine.ts: valid and
// invalid requests, requests without a token, methods a path lacks) sent to a reference server and to a
// target, one request at a time, the reference first; every answer of the target compared with the
// reference's: the status, the headers the spec documents for that answer (present or not; the media type of
// Content-Type) and the body's shape (keys and JSON types, src/diff/shape.ts), never values.
import type { ConformanceConfig } from '../config.js';
import { curlCommand } from '../curl.js';
import { fuzzPlan } from '../fuzz/engine.js';
import type { Case } from '../requestCases.js';
import {
  type JsonObject,
  loadSpecIndex,
  type OperationEntry,
  resolveRef,
  type SpecIndex,
} from '../specIndex.js';
import { shapeDifferences, shapeOf } from './shape.js';

export interface DiffOptions {
  reference: string;
  target: string;
  /** Tokens and fixtures (the same on both servers). */
  config: ConformanceConfig;
  /** Sent with every request that carries a token, instead of the config's administrator token. */
  token?: string | undefined;
  seed: number;
  requests: number;
  only?: ((entry: OperationEntry) => boolean) | undefined;
  onDifference?: (difference: Difference) => void;
}

export interface Difference {
  /** Which request of the sequence (0-based): the same seed sends the same request at that step. */
  step: number;
  operationId: string;
  method: string;
  /** The path and query, the same on both servers. */
  path: string;
  request: string;
  kind: 'status' | 'header' | 'body';
  /** What differs, one line each. */
  details: string[];
  /** The request against the target, as a curl command (the token masked). */
  curl: string;
}

export interface DiffReport {
  reference: string;
  target: string;
  seed: number;
  requests: number;
  seconds: number;
  /** Requests per operation. */
  perOperation: Record<string, number>;
  differences: Difference[];
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function mediaType(value: string | null): string {
  return (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The header names the spec documents for an operation's answer with `status`. */
export function documentedHeaders(index: SpecIndex, entry: OperationEntry, status: number): string[] {
  const responses = (entry.operation.responses as JsonObject | undefined) ?? {};
  const documented =
    responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default ?? undefined;
  if (documented === undefined) return [];
  const response = resolveRef<JsonObject>(index, documented);
  return Object.keys((response.headers as JsonObject | undefined) ?? {}).map((name) => name.toLowerCase());
}

/** What differs between two answers to one request. */
export function compareAnswers(
  index: SpecIndex,
  entry: OperationEntry,
  reference: Answer,
  target: Answer,
): Pick<Difference, 'kind' | 'details'>[] {
  const found: Pick<Difference, 'kind' | 'details'>[] = [];
  if (reference.status !== target.status)
    found.push({
      kind: 'status',
      details: [`status ${reference.status} in the reference, ${target.status} in the target`],
    });
  const headers: string[] = [];
  const referenceType = mediaType(reference.headers.get('content-type'));
  const targetType = mediaType(target.headers.get('content-type'));
  if (referenceType !== targetType)
    headers.push(
      `content-type ${referenceType || '(none)'} in the reference, ${targetType || '(none)'} in the target`,
    );
  for (const name of documentedHeaders(index, entry, reference.status)) {
    if (name === 'content-type') continue;
    const inReference = reference.headers.has(name);
    if (inReference !== target.headers.has(name))
      headers.push(
        `header ${name} ${inReference ? 'sent by the reference only' : 'sent by the target only'}`,
      );
  }
  if (headers.length > 0) found.push({ kind: 'header', details: headers });
  if (reference.status === target.status) {
    const referenceBody = parse(reference.text);
    const targetBody = parse(target.text);
    if (referenceBody.json !== targetBody.json)
      found.push({
        kind: 'body',
        details: [
          `body is ${referenceBody.json ? 'JSON' : 'not JSON'} in the reference, ${targetBody.json ? 'JSON' : 'not JSON'} in the target`,
        ],
      });
    else if (referenceBody.json) {
      const details = shapeDifferences(shapeOf(referenceBody.value), shapeOf(targetBody.value));
      if (details.length > 0) found.push({ kind: 'body', details });
    }
  }
  return found;
}

function parse(text: string): { json: boolean; value?: unknown } {
  if (text === '') return { json: false };
  try {
    return { json: true, value: JSON.parse(text) };
  } catch {
    return { json: false };
  }
}

export async function diff(options: DiffOptions, index: SpecIndex = loadSpecIndex()): Promise<DiffReport> {
  const started = Date.now();
  const operations = index.walkable.filter(
    (entry) => entry.method !== 'HEAD' && (options.only === undefined || options.only(entry)),
  );
  const differences: DiffReport['differences'] = [];
  const perOperation: Record<string, number> = {};
  const report: DiffReport = {
    reference: options.reference,
    target: options.target,
    seed: options.seed,
    requests: 0,
    seconds: 0,
    perOperation,
    differences,
  };
  if (operations.length === 0) return report;
  const plan = fuzzPlan(index, options.config.fixtures, operations, options.seed);
  const token = options.token ?? options.config.tokens.admin;

  function pathOf(entry: OperationEntry, c: Case): string {
    const item = (index.document.paths as Record<string, JsonObject>)[entry.template] ?? {};
    const server = (item.servers as { url: string }[] | undefined)?.[0]?.url.replace(/^\{base_url\}/, '');
    const path = entry.template.replace(/\{([^}]+)\}/g, (_, name: string) => c.path[name] ?? '');
    return `${server ?? '/api/v4'}${path}${c.query ? `?${c.query.replace(/^&/, '')}` : ''}`;
  }

  async function send(
    base: string,
    method: string,
    path: string,
    c: Case,
    withToken: boolean,
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (withToken && !c.anonymous) {
      if (c.bearer) headers.Authorization = `Bearer ${token}`;
      else headers['PRIVATE-TOKEN'] = token;
    }
    if (c.contentType) headers['Content-Type'] = c.contentType;
    const body =
      typeof c.body === 'string' || c.body === undefined ? c.body : new Blob([new Uint8Array(c.body)]);
    try {
      const response = await fetch(`${base}${path}`, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
      });
      return {
        status: response.status,
        headers: response.headers,
        text: method === 'HEAD' ? '' : await response.text(),
      };
    } catch (error) {
      return { status: 0, headers: new Headers(), text: `no answer: ${String(error)}` };
    }
  }

  for (let step = 0; step < options.requests; step++) {
    const job = plan.job(step);
    if (!('c' in job)) continue;
    let method = job.entry.method;
    let c = job.c;
    if (job.kind === 'method') {
      const item = (index.document.paths as Record<string, JsonObject>)[job.entry.template] ?? {};
      const missing = METHODS.filter((m) => item[m.toLowerCase()] === undefined);
      method = missing[step % Math.max(1, missing.length)] ?? method;
      // A GET carries no body (fetch refuses one).
      if (method === 'GET') c = { ...c, body: undefined, contentType: undefined };
    }
    const withToken = job.kind !== 'auth';
    const path = pathOf(job.entry, c);
    const reference = await send(options.reference, method, path, c, withToken);
    const target = await send(options.target, method, path, c, withToken);
    report.requests++;
    perOperation[job.entry.operationId] = (perOperation[job.entry.operationId] ?? 0) + 1;
    const label =
      job.kind === 'auth'
        ? `${c.label}, without a token`
        : job.kind === 'method'
          ? `${method} on ${job.entry.template}`
          : c.label;
    for (const found of compareAnswers(index, job.entry, reference, target)) {
      const difference: Difference = {
        step,
        operationId: job.entry.operationId,
        method,
        path,
        request: label,
        ...found,
        curl: curlCommand({
          method,
          url: `${options.target}${path}`,
          headers: withToken ? { 'PRIVATE-TOKEN': token } : {},
          body: typeof c.body === 'string' ? c.body : undefined,
        }),
      };
      differences.push(difference);
      options.onDifference?.(difference);
    }
  }
  report.seconds = (Date.now() - started) / 1000;
  return report;
}
