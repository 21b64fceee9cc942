// The spec is exactly as strict as the server (issue 17, point 4): for every operation the server implements
// (probed as in negative.test.ts), requests generated from the request schema alone — valid by the spec: the
// required parameters, then seeded random variants with each optional query parameter and body property,
// their values drawn to satisfy enums, patterns, formats, lengths and ranges (src/validValues.ts) — are sent
// against the fixture project or group. None may be refused for its shape: a 400 whose body names a
// parameter as missing, invalid or not a valid value fails the test. A refusal for the state the request
// meets (an object that does not exist, a name already taken, a branch that is protected, 401/403/404/409/
// 422) is fine: every non-2xx answer is classified and the counts printed. Every answer is validated against
// the spec (status, headers, body), and no answer is a 5xx.
//
// The security the spec documents is checked too: a read whose `security` has no anonymous entry (`{}`)
// must answer 401 without a token, and one with it must not, for the public fixture project or group.
//
// The requests never archive, delete, transfer or edit the fixture projects (CHANGES_THE_PROJECT and
// `editProject` go to a project that does not exist), create only uniquely named objects, and so tolerate a
// shared server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Target } from '../src/index.js';
import { inParallel, operationRequests } from '../src/operationRequests.js';
import { type Case, requestCases } from '../src/requestCases.js';
import { loadSpecIndex } from '../src/specIndex.js';
import { classOf, hasAnonymousAccess, validVariants } from '../src/validVariants.js';

const index = loadSpecIndex();
const cases = requestCases(index, () => target.config.fixtures);
const { send, probe, urlOf } = operationRequests(index, cases, () => target);
/** The variants of an operation (src/validVariants.ts, shared with `collab-conformance fuzz`). */
const { variantsFor } = validVariants(index, cases);
const PARALLEL = 4;

let target: Target;
let implemented = new Set<string>();
/** Non-2xx answers by class (`404`, `400 state` …), over the whole file, printed at the end. */
const tally = new Map<string, number>();
/** One example answer per operation and class, printed with the counts. */
const examples = new Map<string, string>();

beforeAll(async () => {
  target = await openTarget();
  implemented = await probe();
  // The probe is some 200 requests: far below a minute, unless the machine is shared and loaded.
}, 600_000);
afterAll(async () => {
  const lines = [...tally.entries()].sort().map(([key, count]) => `  ${key}: ${count}`);
  console.info(`validRequests: answers by class\n${lines.join('\n')}`);
  console.info(`validRequests: examples of refusals for state\n${[...examples.values()].sort().join('\n')}`);
  await target.close();
});

describe('every request valid by the spec is taken for its shape', () => {
  for (const entry of index.walkable) {
    it(`${entry.operationId}: ${entry.method} ${entry.template}`, async (context) => {
      if (!implemented.has(entry.operationId)) context.skip();
      const failures: string[] = [];
      let variants: Case[];
      try {
        variants = variantsFor(entry);
      } catch (error) {
        throw new Error(`${entry.operationId}: ${String(error)}`);
      }
      await inParallel(variants, PARALLEL, async (c) => {
        const answer = await send(entry, c);
        const kind = classOf(answer.status, answer.text);
        const body = typeof c.body === 'string' ? ` ${c.body}` : '';
        const request = `${entry.method} ${urlOf(entry, c)}${body}`;
        if (answer.status >= 500 || answer.problems.length > 0 || kind === 'shape') {
          failures.push(
            `[${c.label}] ${request.slice(0, 400)}\n  → ${answer.status} ${answer.text.slice(0, 300)}${answer.problems.map((p) => `\n    ${p}`).join('')}`,
          );
        }
        if (answer.status >= 300) {
          tally.set(kind, (tally.get(kind) ?? 0) + 1);
          examples.set(
            `${entry.operationId} ${kind}`,
            `  ${entry.operationId} ${answer.status}: ${answer.text.slice(0, 120)}`,
          );
        } else {
          tally.set('2xx', (tally.get('2xx') ?? 0) + 1);
        }
      });

      // The documented security, for reads of the public fixture project or group.
      if (entry.method === 'GET' && /^\/(projects|groups)\/\{id\}/.test(entry.template)) {
        const [first] = variants;
        if (first) {
          const answer = await send(entry, { ...first, anonymous: true });
          if (answer.status === 401 && hasAnonymousAccess(index, entry))
            failures.push(`anonymous: 401, but the spec's security allows anonymous access`);
          if (answer.status !== 401 && answer.status < 500 && !hasAnonymousAccess(index, entry))
            failures.push(`anonymous: ${answer.status} (served), but the spec's security demands a token`);
        }
      }
      expect(failures, entry.operationId).toEqual([]);
    });
  }
});
