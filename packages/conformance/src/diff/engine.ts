// `collab-conformance diff`: one seeded sequence of requests (the fuzz's plan, src/fuzz/engine.ts: valid and
// invalid requests, requests without a token, methods a path lacks) sent to a reference server and to a
// target, one request at a time, the reference first; every answer of the target compared with the
// reference's: the status, the headers the spec documents for that answer (present or not; the media type of
// Content-Type) and the body's shape (keys and JSON types, src/diff/shape.ts), never values. After a create
// that both servers accepted, each is asked about what it made: the create's links (reads, then updates,
// then deletions), with the IDs of its own answer, and those answers are compared too.
import type { ConformanceConfig } from '../config.js';
import { curlCommand } from '../curl.js';
import { fuzzPlan, type Job } from '../fuzz/engine.js';
import { type Link, linksOf } from '../fuzz/links.js';
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
  /** The path and query: the same on both servers, but for a link's, which carries each one's own IDs. */
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
  /** Steps of the seeded sequence sent to each server. */
  requests: number;
  /** Requests that followed a create's links, sent to each server besides. */
  linkRequests: number;
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
    linkRequests: 0,
    seconds: 0,
    perOperation,
    differences,
  };
  if (operations.length === 0) return report;
  const plan = fuzzPlan(index, options.config.fixtures, operations, options.seed);
  const token = options.token ?? options.config.tokens.admin;
  // Links are followed to the operations the run may send.
  const byOperationId = new Map(operations.map((entry) => [entry.operationId, entry]));

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

  function compare(
    step: number,
    entry: OperationEntry,
    method: string,
    path: string,
    label: string,
    c: Case,
    withToken: boolean,
    reference: Answer,
    target: Answer,
  ): void {
    perOperation[entry.operationId] = (perOperation[entry.operationId] ?? 0) + 1;
    for (const found of compareAnswers(index, entry, reference, target)) {
      const difference: Difference = {
        step,
        operationId: entry.operationId,
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

  /** The links of a create both servers accepted, each request with the IDs of that server's own answer. */
  async function followLinks(step: number, job: Job, reference: Answer, target: Answer): Promise<void> {
    const succeeded = (answer: Answer) => answer.status >= 200 && answer.status < 300;
    if (!succeeded(reference) || !succeeded(target)) return;
    const requestPath = Object.fromEntries(
      Object.entries(job.c.path).map(([name, value]) => [name, decodeURIComponent(value)]),
    );
    const contextOf = (answer: Answer) => ({
      requestPath,
      requestBody: job.json,
      responseBody: parse(answer.text).value,
    });
    const order = (entry: OperationEntry) => (entry.method === 'GET' ? 0 : entry.method === 'DELETE' ? 2 : 1);
    const steps = linksOf(index, job.entry)
      .map((link) => ({ link, entry: byOperationId.get(link.operationId) }))
      .filter((linked): linked is { link: Link; entry: OperationEntry } => linked.entry !== undefined)
      .sort((a, b) => order(a.entry) - order(b.entry));
    for (const { link, entry } of steps) {
      const referenceCase = plan.linked(link, entry, job, contextOf(reference));
      const targetCase = plan.linked(link, entry, job, contextOf(target));
      if (referenceCase === undefined || targetCase === undefined) continue;
      const referenceAnswer = await send(
        options.reference,
        entry.method,
        pathOf(entry, referenceCase),
        referenceCase,
        true,
      );
      const targetPath = pathOf(entry, targetCase);
      const targetAnswer = await send(options.target, entry.method, targetPath, targetCase, true);
      report.linkRequests++;
      const label = targetCase.label;
      compare(step, entry, entry.method, targetPath, label, targetCase, true, referenceAnswer, targetAnswer);
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
    const label =
      job.kind === 'auth'
        ? `${c.label}, without a token`
        : job.kind === 'method'
          ? `${method} on ${job.entry.template}`
          : c.label;
    compare(step, job.entry, method, path, label, c, withToken, reference, target);
    if (job.kind === 'sequence') await followLinks(step, job, reference, target);
  }
  report.seconds = (Date.now() - started) / 1000;
  return report;
}
