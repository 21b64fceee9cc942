// Sending the requests built from the spec (requestCases.ts) and judging the answers against it, for the
// spec-driven tests: which operations the server implements (the probe), one case sent as the administrator
// (or anonymously), and a bounded number of them in flight at once.

import { curlCommand } from './curl.js';
import type { Case, RequestCases } from './requestCases.js';
import { ResponseValidator } from './responseValidator.js';
import type { JsonObject, OperationEntry, SpecIndex } from './specIndex.js';
import type { Target } from './target.js';
import { recordExchange } from './validatingFetch.js';

export interface Answer {
  status: number;
  text: string;
  /** What the response breaks of the spec (undocumented status, headers, body). */
  problems: string[];
  /** The response's Content-Type header, as sent. */
  contentType: string | null;
}

export interface OperationRequests {
  /** The full URL of a case. */
  urlOf(entry: OperationEntry, c: Case): string;
  /**
   * Sends a case (with the administrator's token in PRIVATE-TOKEN, or as a Bearer token, unless it is anonymous)
   * and validates the answer.
   */
  send(entry: OperationEntry, c: Case): Promise<Answer>;
  /**
   * The operations the server implements, by operationId: an anonymous, valid request for a project or group
   * that does not exist reaches the operation's own checks (401, or `404 Project Not Found`) where there is a
   * route, and the server's catch-all `404 Not Found` where there is none (a 500 on a server that validates
   * responses, when the operation documents no 404). A HEAD operation goes with the GET of its path.
   * The target's `implemented`, when it has one, is that answer already.
   */
  probe(): Promise<Set<string>>;
}

const V4 = '/api/v4';

export function operationRequests(
  index: SpecIndex,
  cases: Pick<RequestCases, 'baseCase'>,
  target: () => Target,
): OperationRequests {
  const validator = new ResponseValidator(index);

  function urlOf(entry: OperationEntry, c: Case): string {
    const item = (index.document.paths as Record<string, JsonObject>)[entry.template] ?? {};
    const server = (item.servers as { url: string }[] | undefined)?.[0]?.url.replace(/^\{base_url\}/, '');
    const path = entry.template.replace(/\{([^}]+)\}/g, (_, name: string) => c.path[name] ?? '');
    return `${target().config.baseUrl}${server ?? V4}${path}${c.query ? `?${c.query.replace(/^&/, '')}` : ''}`;
  }

  async function send(entry: OperationEntry, c: Case): Promise<Answer> {
    // The administrator's token is every later test's too: a walk that would revoke it is a walk's bug.
    if (entry.revokesCallerToken && !c.anonymous)
      throw new Error(`${entry.operationId} revokes the token it is sent with: leave it out of the walk`);
    const url = urlOf(entry, c);
    const token = target().config.tokens.admin;
    const headers: Record<string, string> = c.anonymous
      ? {}
      : c.bearer
        ? { Authorization: `Bearer ${token}` }
        : { 'PRIVATE-TOKEN': token };
    if (c.contentType) headers['Content-Type'] = c.contentType;
    const body =
      typeof c.body === 'string' || c.body === undefined ? c.body : new Blob([new Uint8Array(c.body)]);
    const response = await fetch(url, { method: entry.method, headers, body });
    const text = entry.method === 'HEAD' ? '' : await response.text();
    const { problems, violations } = validator.check(
      entry.method,
      url,
      response.status,
      response.headers,
      text,
    );
    // Recorded like the validating fetch's exchanges, so the CLI's per-operation report counts them.
    recordExchange({
      operationId: entry.operationId,
      method: entry.method,
      url,
      status: response.status,
      problems,
      violations,
      curl: curlCommand({
        method: entry.method,
        url,
        headers,
        body: typeof c.body === 'string' ? c.body : undefined,
      }),
    });
    return { status: response.status, text, problems, contentType: response.headers.get('content-type') };
  }

  async function probe(): Promise<Set<string>> {
    // A warm server was probed once when it started, for every file that shares it.
    const known = target().implemented;
    if (known) return new Set(known);
    const implemented = new Set<string>();
    const catchAll = (answer: Answer, entry: OperationEntry) =>
      (answer.status === 404 && answer.text.replace(/\s/g, '') === '{"message":"404NotFound"}') ||
      (answer.status >= 500 && !(entry.operation.responses as JsonObject)['404']);
    const gets = index.operations.filter((entry) => entry.method !== 'HEAD');
    await inParallel(gets, 4, async (entry) => {
      const answer = await send(entry, cases.baseCase(entry, 0, true));
      if (!catchAll(answer, entry)) implemented.add(entry.operationId);
    });
    for (const head of index.operations.filter((entry) => entry.method === 'HEAD')) {
      const get = gets.find((entry) => entry.template === head.template && entry.method === 'GET');
      if (get && implemented.has(get.operationId)) implemented.add(head.operationId);
    }
    return implemented;
  }

  return { urlOf, send, probe };
}

/** Runs `work` over `items`, `parallel` at a time. */
export async function inParallel<T>(
  items: readonly T[],
  parallel: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}
