// Every operation of the bundled spec is served (issue 19, point 5): a valid request to each, as the
// administrator, never ends in the server's catch-all for paths nothing routes. The catch-all marks its 404
// with `X-Collab-Unrouted: 1` (apps/server/src/app.ts), so a route's own 404 (`404 Project Not Found`, an
// unknown object) is told apart from it whatever the body says. Against a server other than this
// repository's the header is absent, and the catch-all is recognised by its body instead (a 404 with exactly
// `{"message":"404 Not Found"}` and no route of the operation can be told apart from it there).
//
// The requests name a project or group that does not exist wherever the path has one (as the probe of the
// spec-driven tests does), so they reach the route and change nothing of the fixtures; the few writes without
// such a parameter use only the required fields, with names of this run.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTarget, type Target } from '../src/index.js';
import { inParallel, operationRequests } from '../src/operationRequests.js';
import { requestCases } from '../src/requestCases.js';
import { loadSpecIndex, type OperationEntry } from '../src/specIndex.js';

const index = loadSpecIndex();
const cases = requestCases(index, () => target.config.fixtures);
const { urlOf } = operationRequests(index, cases, () => target);

let target: Target;

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target.close();
});

/** Whether the answer is the catch-all of an unrouted path. */
function unrouted(response: Response, text: string): boolean {
  if (response.headers.get('x-collab-unrouted') === '1') return true;
  if (target.local) return false;
  return response.status === 404 && text.replace(/\s/g, '') === '{"message":"404NotFound"}';
}

/** Sends the operation's valid request as the administrator, against a project or group that does not exist. */
async function reachesARoute(entry: OperationEntry, n: number): Promise<{ routed: boolean; status: number }> {
  const c = { ...cases.baseCase(entry, n, true), anonymous: false };
  const headers: Record<string, string> = { 'PRIVATE-TOKEN': target.config.tokens.admin };
  if (c.contentType) headers['Content-Type'] = c.contentType;
  const body =
    typeof c.body === 'string' || c.body === undefined ? c.body : new Blob([new Uint8Array(c.body)]);
  const response = await fetch(urlOf(entry, c), { method: entry.method, headers, body });
  const text = entry.method === 'HEAD' ? '' : await response.text();
  return { routed: !unrouted(response, text), status: response.status };
}

it('serves every operation of the spec (none answers the catch-all of an unrouted path)', async () => {
  const unserved: string[] = [];
  let n = 0;
  await inParallel(index.operations, 4, async (entry) => {
    const { routed, status } = await reachesARoute(entry, ++n);
    if (!routed) unserved.push(`${entry.operationId} (${entry.method} ${entry.template}: ${status})`);
  });
  unserved.sort();
  expect(unserved, `${unserved.length} operations answer the catch-all:\n${unserved.join('\n')}`).toEqual([]);
  // The walk did cover the spec: every operation was sent once.
  expect(n).toBe(index.operations.length);
  // A request per operation: about six minutes on a quiet 2-core machine, more than ten on a loaded one.
}, 1_500_000);

// (A path under /api/v4 that the spec does not have is the validator's 404; the catch-all gets what is left.)
it('marks the catch-all so that it is told apart from a route', async () => {
  const response = await fetch(`${target.config.baseUrl}/no-such-path/anywhere`, {
    headers: { 'PRIVATE-TOKEN': target.config.tokens.admin },
  });
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({ message: '404 Not Found' });
  if (target.local) expect(response.headers.get('x-collab-unrouted')).toBe('1');
});
