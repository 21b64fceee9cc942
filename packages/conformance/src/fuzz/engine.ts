// `collab-conformance fuzz`: requests generated from the spec for every operation the server implements,
// valid and invalid, bounded by a count and a time, seeded (job i of a seed is always the same request or
// sequence), and every answer judged as a property-based OpenAPI tester judges it:
// - no 5xx, and status, content type, headers and body as the spec documents (src/responseValidator.ts);
// - a request valid by the spec alone (src/validVariants.ts) not refused for its shape (a refusal for the
//   state it meets, 404 of a missing object, 409, 403, is not a finding);
// - a request the spec makes invalid (src/fuzz/invalid.ts) refused with a 4xx;
// - without a token, or with a wrong one, an operation whose security demands a token serves nothing (2xx);
// - a method the path does not have answers 405 naming the path's methods in `Allow` (or another 4xx);
// - stateful sequences along the spec's links (src/fuzz/links.ts): what a create made is readable at once,
//   updates of it are taken, and once deleted (204) it answers 404.
// Every finding carries the operation and a curl command that repeats the request.
import type { ConformanceConfig } from '../config.js';
import { curlCommand } from '../curl.js';
import { operationRequests } from '../operationRequests.js';
import { type Case, requestCases } from '../requestCases.js';
import { ResponseValidator } from '../responseValidator.js';
import { type JsonObject, loadSpecIndex, type OperationEntry, type SpecIndex } from '../specIndex.js';
import { targetFor } from '../target.js';
import { NoValueForPattern, Random } from '../validValues.js';
import {
  classOf,
  hasAnonymousAccess,
  seedOf,
  VARIANTS,
  type Variant,
  validVariants,
} from '../validVariants.js';
import { invalidRequests } from './invalid.js';
import { evaluate, type Link, type LinkContext, linksOf } from './links.js';

export type Check =
  | 'server error'
  | 'contract'
  | 'valid request refused'
  | 'invalid request accepted'
  | 'served without a token'
  | 'served with a wrong token'
  | 'method not allowed'
  | 'created resource not readable'
  | 'deleted resource still served'
  | 'no answer';

export interface Finding {
  check: Check;
  operationId: string;
  method: string;
  url: string;
  status: number;
  /** What the request was (`valid variant 2`, `body name over its maximum length`, `after createBranch`). */
  request: string;
  message: string;
  curl: string;
}

export interface FuzzOptions {
  config: ConformanceConfig;
  /** Requests at most (the probe's not counted). */
  requests: number;
  /** Seconds at most. */
  seconds: number;
  seed: number;
  /** Only the operations this selects (`--only`, src/cli/options.ts). */
  only?: ((entry: OperationEntry) => boolean) | undefined;
  /** Jobs in flight at once. */
  parallel?: number;
  onFinding?: (finding: Finding) => void;
  /** Called now and then with the requests sent so far. */
  onProgress?: (sent: number) => void;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  /** Requests of the probe that finds which operations are implemented. */
  probeRequests: number;
  seconds: number;
  /** Requests by kind of job (valid, invalid, auth, method, sequence). */
  byKind: Record<string, number>;
  /** Answers by status class (`2xx`, `404`, `400 state`, `shape`...). */
  byStatus: Record<string, number>;
  operations: { fuzzed: number; notImplemented: string[] };
  /** Operations by operationId with the requests each got. */
  perOperation: Record<string, number>;
  /** Operations some of whose requests could not be generated, and why (the spec needs an example). */
  unsupported: Record<string, string>;
  findings: Finding[];
}

/** One job of the fuzz: what it is made of, before anything is sent. */
export interface Job {
  index: number;
  kind: 'valid' | 'invalid' | 'auth' | 'method' | 'sequence';
  entry: OperationEntry;
  /** The first request (the create of a sequence). */
  c: Case;
  label: string;
  mustRefuse: boolean;
  json?: JsonObject;
}

const V4 = '/api/v4';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** The wrong token: no server issues it. */
const WRONG_TOKEN = 'collab-fuzz-wrong-token-0000';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  problems: string[];
}

/**
 * The request plan of a seed over `operations` (of `index.walkable`): job i depends on the seed and i alone,
 * never on answers or timing.
 */
export function fuzzPlan(
  index: SpecIndex,
  fixtures: ConformanceConfig['fixtures'],
  operations: OperationEntry[],
  seed: number,
) {
  const cases = requestCases(index, () => fixtures);
  const { variant } = validVariants(index, cases);
  const { invalidRequest } = invalidRequests(cases);
  // A seeded order of the operations: the first jobs of a run cover each operation once.
  const order = [...operations];
  const shuffle = new Random(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = shuffle.int(0, i);
    [order[i], order[j]] = [order[j] as OperationEntry, order[i] as OperationEntry];
  }

  /** Job i, or the reason none can be made for its operation (a pattern no known value matches). */
  function job(i: number): Job | { entry: OperationEntry; unsupported: string } {
    const entry = order[i % order.length] as OperationEntry;
    const random = new Random(seedOf(`${seed}:${i}`));
    const n = i + 1;
    let v: Variant;
    try {
      v = variant(entry, random, random.int(0, VARIANTS - 1), n);
    } catch (error) {
      if (error instanceof NoValueForPattern) return { entry, unsupported: error.message };
      throw error;
    }
    const roll = random.next();
    const base = { index: i, entry, mustRefuse: false, json: v.json };
    if (linksOf(index, entry).length > 0 && roll < 0.3)
      return { ...base, kind: 'sequence', c: v.c, label: `${v.c.label}, then its links` };
    if (roll < 0.55) return { ...base, kind: 'valid', c: v.c, label: v.c.label };
    if (roll < 0.88) {
      const mutation = invalidRequest(entry, v, random);
      if (mutation)
        return {
          ...base,
          kind: 'invalid',
          c: mutation.c,
          label: mutation.label,
          mustRefuse: mutation.mustRefuse,
        };
      return { ...base, kind: 'valid', c: v.c, label: v.c.label };
    }
    if (roll < 0.96)
      return { ...base, kind: 'auth', c: v.c, label: `${v.c.label}, no token and a wrong one` };
    return { ...base, kind: 'method', c: v.c, label: 'a method the path does not have' };
  }

  /**
   * The request that follows `link` of job's create to `target`: a seeded variant of the target (the same for
   * the same seed, job and link) with the link's parameters evaluated against the create's request and answer;
   * undefined when the answer lacks a value the link needs.
   */
  function linked(link: Link, target: OperationEntry, of: Job, context: LinkContext): Case | undefined {
    const random = new Random(seedOf(`${seed}:${of.index}:${link.name}`));
    const v = variant(target, random, 0, of.index + 1);
    const path = { ...v.c.path };
    const query = new URLSearchParams(v.c.query);
    const parameters = cases.parametersOf(target);
    for (const [name, expression] of Object.entries(link.parameters)) {
      const value = evaluate(expression, context);
      if (value === undefined) return undefined;
      const parameter = parameters.find((p) => p.name === name);
      if (parameter?.in === 'path') path[name] = encodeURIComponent(value);
      else if (parameter?.in === 'query') query.set(name, value);
    }
    return { ...v.c, path, query: query.toString(), label: `${link.name} after ${of.entry.operationId}` };
  }

  return { job, variant, cases, linked };
}

/**
 * Runs `work` again (twice at most) when the connection broke before an answer: a keep-alive connection the
 * server closed just as it was reused is the transport's race, not an answer of the server.
 */
async function withRetries<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = String((error as { cause?: { code?: unknown } }).cause?.code ?? '');
      if (attempt >= 2 || !['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'].includes(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export async function fuzz(options: FuzzOptions, index: SpecIndex = loadSpecIndex()): Promise<FuzzReport> {
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  const { config } = options;
  const validator = new ResponseValidator(index);
  const target = targetFor(config);
  const probeCases = requestCases(index, () => config.fixtures);
  const implemented = await withRetries(() => operationRequests(index, probeCases, () => target).probe());
  const probeRequests = index.operations.filter((entry) => entry.method !== 'HEAD').length;
  const only = options.only;
  const selected = index.walkable.filter((entry) => only === undefined || only(entry));
  const operations = selected.filter((entry) => implemented.has(entry.operationId));
  const byId = new Map(index.operations.map((entry) => [entry.operationId, entry]));
  const plan = fuzzPlan(index, config.fixtures, operations, options.seed);

  const findings: Finding[] = [];
  const byKind: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  const perOperation: Record<string, number> = {};
  const unsupported: Record<string, string> = {};
  let sent = 0;
  const budgetLeft = () => sent < options.requests && Date.now() < deadline;

  function urlOf(entry: OperationEntry, c: Case): string {
    const item = (index.document.paths as Record<string, JsonObject>)[entry.template] ?? {};
    const server = (item.servers as { url: string }[] | undefined)?.[0]?.url.replace(/^\{base_url\}/, '');
    const path = entry.template.replace(/\{([^}]+)\}/g, (_, name: string) => c.path[name] ?? '');
    return `${config.baseUrl}${server ?? V4}${path}${c.query ? `?${c.query.replace(/^&/, '')}` : ''}`;
  }

  interface Sent {
    answer: Answer | undefined;
    url: string;
    curl: string;
    method: string;
  }

  /** Sends `c` to `entry`'s path with `method` (the operation's by default) and the given token. */
  async function send(
    entry: OperationEntry,
    c: Case,
    kind: string,
    token: string | undefined,
    method = entry.method,
  ): Promise<Sent> {
    const url = urlOf(entry, c);
    const headers: Record<string, string> = token === undefined ? {} : { 'PRIVATE-TOKEN': token };
    if (c.contentType) headers['Content-Type'] = c.contentType;
    const curl = curlCommand({ method, url, headers, body: typeof c.body === 'string' ? c.body : undefined });
    sent++;
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    perOperation[entry.operationId] = (perOperation[entry.operationId] ?? 0) + 1;
    if (sent % 250 === 0) options.onProgress?.(sent);
    const body =
      typeof c.body === 'string' || c.body === undefined ? c.body : new Blob([new Uint8Array(c.body)]);
    let response: Response;
    try {
      response = await withRetries(() =>
        fetch(url, { method, headers, body, signal: AbortSignal.timeout(30_000) }),
      );
    } catch (error) {
      report('no answer', entry, method, url, 0, c.label, `no answer: ${String(error)}`, curl);
      return { answer: undefined, url, curl, method };
    }
    const text = method === 'HEAD' ? '' : await response.text();
    const known = method === entry.method;
    const { problems } = known
      ? validator.check(method, url, response.status, response.headers, text)
      : { problems: [] as string[] };
    const answer = { status: response.status, headers: response.headers, text, problems };
    const status = classOf(answer.status, text);
    byStatus[status.startsWith('2') ? '2xx' : status] =
      (byStatus[status.startsWith('2') ? '2xx' : status] ?? 0) + 1;
    if (answer.status >= 500)
      report(
        'server error',
        entry,
        method,
        url,
        answer.status,
        c.label,
        `${answer.status} ${text.slice(0, 300)}`,
        curl,
      );
    else if (problems.length > 0)
      report('contract', entry, method, url, answer.status, c.label, problems.join('; '), curl);
    return { answer, url, curl, method };
  }

  function report(
    check: Check,
    entry: OperationEntry,
    method: string,
    url: string,
    status: number,
    request: string,
    message: string,
    curl: string,
  ): void {
    const finding = { check, operationId: entry.operationId, method, url, status, request, message, curl };
    findings.push(finding);
    options.onFinding?.(finding);
  }

  function judgeValid(entry: OperationEntry, c: Case, result: Sent): void {
    const { answer } = result;
    if (answer && classOf(answer.status, answer.text) === 'shape')
      report(
        'valid request refused',
        entry,
        result.method,
        result.url,
        answer.status,
        c.label,
        `refused for its shape: ${answer.text.slice(0, 300)}`,
        result.curl,
      );
  }

  /** Jobs in flight outside `alone`, and whether a job runs alone now. */
  let inFlight = 0;
  let aloneNow = false;
  const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

  async function shared<T>(work: () => Promise<T>): Promise<T> {
    while (aloneNow) await pause();
    inFlight++;
    try {
      return await work();
    } finally {
      inFlight--;
    }
  }

  /** Runs `work` with no other job in flight. */
  async function alone<T>(work: () => Promise<T>): Promise<T> {
    while (aloneNow) await pause();
    aloneNow = true;
    try {
      while (inFlight > 0) await pause();
      return await work();
    } finally {
      aloneNow = false;
    }
  }

  async function runJob(job: Job): Promise<void> {
    const { entry, c } = job;
    const admin = config.tokens.admin;
    if (job.kind === 'valid') {
      judgeValid(entry, c, await send(entry, c, job.kind, admin));
    } else if (job.kind === 'invalid') {
      const result = await send(entry, c, job.kind, admin);
      const status = result.answer?.status ?? 0;
      if (job.mustRefuse && status > 0 && status < 400)
        report(
          'invalid request accepted',
          entry,
          entry.method,
          result.url,
          status,
          c.label,
          `answered ${status} to a request the spec makes invalid (${c.label})`,
          result.curl,
        );
    } else if (job.kind === 'auth') {
      if (hasAnonymousAccess(index, entry)) {
        judgeValid(entry, c, await send(entry, c, job.kind, admin));
        return;
      }
      for (const [token, check] of [
        [undefined, 'served without a token'],
        [WRONG_TOKEN, 'served with a wrong token'],
      ] as const) {
        const result = await send(entry, c, job.kind, token);
        const status = result.answer?.status ?? 0;
        if (status >= 200 && status < 300)
          report(
            check,
            entry,
            entry.method,
            result.url,
            status,
            c.label,
            `${status}: the spec's security demands a valid token`,
            result.curl,
          );
      }
    } else if (job.kind === 'method') {
      await checkMethodNotAllowed(job);
    }
  }

  async function checkMethodNotAllowed(job: Job): Promise<void> {
    const item = (index.document.paths as Record<string, JsonObject>)[job.entry.template] ?? {};
    const allowed = METHODS.filter((method) => item[method.toLowerCase()] !== undefined);
    const missing = METHODS.filter((method) => !allowed.includes(method));
    const method = missing[job.index % Math.max(1, missing.length)];
    if (method === undefined) return;
    // A GET or HEAD carries no body (fetch refuses one): the path and query stay the valid request's.
    const bodyless = method === 'GET' || method === 'HEAD';
    const c = {
      ...job.c,
      label: `${method} on ${job.entry.template}`,
      ...(bodyless ? { body: undefined, contentType: undefined } : {}),
    };
    const result = await send(job.entry, c, job.kind, config.tokens.admin, method);
    const status = result.answer?.status ?? 0;
    if (status >= 200 && status < 300)
      report(
        'method not allowed',
        job.entry,
        method,
        result.url,
        status,
        c.label,
        `${status}: ${method} is no method of ${job.entry.template}`,
        result.curl,
      );
    if (status !== 405) return;
    const expected = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].sort();
    const allow = result.answer?.headers.get('allow');
    const given = (allow ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter(Boolean)
      .sort();
    if (given.join() !== expected.join())
      report(
        'method not allowed',
        job.entry,
        method,
        result.url,
        status,
        c.label,
        `405 with Allow: ${allow ?? '(none)'}, the path has ${expected.join(', ')}`,
        result.curl,
      );
  }

  /** The request of a link's operation: a valid variant, its parameters taken from the link. */
  /**
   * Jobs run side by side, but a sequence's verdicts hold only if no other job changes its resource between
   * its steps: a deletion and the reads after it run alone, and so does a whole sequence that starts with an
   * upsert (a PUT of a resource that exists once per project, such as an integration, which other jobs
   * write too, maybe under another path).
   */
  async function runSequence(job: Job): Promise<void> {
    if (job.entry.method !== 'POST') {
      await alone(async () => {
        const deletion = await createAndFollow(job);
        await deletion?.();
      });
      return;
    }
    const deletion = await shared(() => createAndFollow(job));
    if (deletion) await alone(deletion);
  }

  /** The create and its reads and updates; then the deletion step, still to run, when there is one. */
  async function createAndFollow(job: Job): Promise<(() => Promise<void>) | undefined> {
    const { entry, c } = job;
    const admin = config.tokens.admin;
    const created = await send(entry, c, job.kind, admin);
    judgeValid(entry, c, created);
    const answer = created.answer;
    if (!answer || answer.status < 200 || answer.status >= 300) return undefined;
    let responseBody: unknown;
    try {
      responseBody = JSON.parse(answer.text);
    } catch {
      responseBody = undefined;
    }
    const requestPath = Object.fromEntries(
      Object.entries(c.path).map(([k, v]) => [k, decodeURIComponent(v)]),
    );
    const context = { requestPath, requestBody: job.json, responseBody };
    const steps = linksOf(index, entry)
      .map((link) => ({ link, target: byId.get(link.operationId) }))
      .filter(
        (step): step is { link: Link; target: OperationEntry } =>
          step.target !== undefined && implemented.has(step.target.operationId),
      )
      .map((step) => ({ ...step, c: plan.linked(step.link, step.target, job, context) }))
      .filter((step): step is { link: Link; target: OperationEntry; c: Case } => step.c !== undefined);
    const reads = steps.filter((step) => step.target.method === 'GET');
    const deletes = steps.filter((step) => step.target.method === 'DELETE');
    const others = steps.filter((step) => step.target.method !== 'GET' && step.target.method !== 'DELETE');
    // Readable at once.
    for (const read of reads) {
      const result = await send(read.target, read.c, job.kind, admin);
      const status = result.answer?.status ?? 0;
      if (status > 0 && (status < 200 || status >= 300))
        report(
          'created resource not readable',
          read.target,
          'GET',
          result.url,
          status,
          read.c.label,
          `${entry.operationId} answered ${answer.status}, then ${read.target.operationId} answered ${status}: ${result.answer?.text.slice(0, 200)}`,
          result.curl,
        );
    }
    for (const other of others)
      judgeValid(other.target, other.c, await send(other.target, other.c, job.kind, admin));
    // Deleted: every read answers 404 (a deletion only scheduled, 202, may still be served). A DELETE the spec
    // marks `x-deletion: disables` (GitLab's integrations) switches the resource off and keeps it readable.
    const remove = deletes.find((step) => step.target.operation['x-deletion'] !== 'disables');
    if (!remove) return undefined;
    return async () => {
      const removed = await send(remove.target, remove.c, job.kind, admin);
      judgeValid(remove.target, remove.c, removed);
      if (removed.answer?.status !== 204 && removed.answer?.status !== 200) return;
      for (const read of reads) {
        const result = await send(read.target, read.c, job.kind, admin);
        const status = result.answer?.status ?? 0;
        if (status > 0 && status !== 404)
          report(
            'deleted resource still served',
            read.target,
            'GET',
            result.url,
            status,
            `${read.c.label}, after ${remove.target.operationId}`,
            `${remove.target.operationId} answered ${removed.answer.status}, then ${read.target.operationId} answered ${status}, not 404`,
            result.curl,
          );
      }
    };
  }

  let next = 0;
  const parallel = options.parallel ?? 4;
  if (operations.length > 0) {
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (budgetLeft()) {
          const job = plan.job(next++);
          if ('unsupported' in job) unsupported[job.entry.operationId] = job.unsupported;
          else if (job.kind === 'sequence') await runSequence(job);
          else await shared(() => runJob(job));
        }
      }),
    );
  }
  return {
    seed: options.seed,
    requests: sent,
    probeRequests,
    seconds: (Date.now() - started) / 1000,
    byKind,
    byStatus,
    operations: {
      fuzzed: operations.length,
      notImplemented: selected
        .filter((entry) => !implemented.has(entry.operationId))
        .map((e) => e.operationId),
    },
    perOperation,
    unsupported,
    findings,
  };
}
