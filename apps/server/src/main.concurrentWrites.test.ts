// Two worker processes on one data directory under concurrent writes of every kind: no write may fail on a
// busy database (no 5xx), commits to a branch that moved meanwhile are applied on the new tip, and every
// acknowledged write is there afterwards. The loops are bounded in time and in count. On the run's PostgreSQL
// when the tests run on it (COLLAB_TEST_DATABASE=postgres), on the SQLite file otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEd25519Key } from './areas/deployKeys/sshKeys.testSupport.js';
import {
  type Answer,
  callOnNewConnection,
  type StartedServers,
  startServers,
} from './workerServer.testSupport.js';

const MAINTAINER = 'collab-demo-maintainer-token';
const ADMIN = 'collab-demo-admin-token';
const PROJECT = '/api/v4/projects/acme%2Fwebsite';
/**
 * How long the writers of the mixed test run, and how many writes each makes at least (however slow a
 * loaded machine is: the concurrency is the point, not the rate) and at most.
 */
const WRITE_FOR_MS = 10_000;
const MIN_WRITES_PER_WRITER = 6;
const MAX_WRITES_PER_WRITER = 40;

let started: StartedServers | undefined;

/** One request on a connection of its own, so that the primary hands it to the next worker in turn. */
function call(method: string, path: string, body?: unknown, token = MAINTAINER): Promise<Answer> {
  return callOnNewConnection(started?.servers[0]?.origin ?? '', method, path, body, token);
}

const enc = encodeURIComponent;

/** What a writer was told: the answers it got that were not the expected success, and what it wrote. */
interface Outcome {
  unexpected: string[];
  /** Read-backs that must succeed afterwards: a path and the status (and body) it must give. */
  checks: { path: string; status: number; body?: string }[];
}

/**
 * Runs `write(i)` for i = 0, 1, … at least MIN_WRITES_PER_WRITER times, then until the time is up or the
 * count is reached; each write returns the answer, the status that acknowledges it, and the checks that must
 * hold afterwards if it was acknowledged.
 */
async function writer(
  deadline: number,
  write: (
    i: number,
  ) => Promise<{ what: string; answer: Answer; expected: number; checks?: Outcome['checks'] }>,
): Promise<Outcome> {
  const outcome: Outcome = { unexpected: [], checks: [] };
  for (let i = 0; i < MAX_WRITES_PER_WRITER && (i < MIN_WRITES_PER_WRITER || Date.now() < deadline); i++) {
    const { what, answer, expected, checks } = await write(i);
    if (answer.status !== expected) {
      outcome.unexpected.push(`${what}: ${answer.status} ${answer.body.slice(0, 200)}`);
    } else {
      outcome.checks.push(...(checks ?? []));
    }
  }
  return outcome;
}

beforeAll(async () => {
  started = await startServers('concurrent-writes', 1, 2);
}, 180_000);

afterAll(async () => {
  await started?.stop();
}, 20_000);

describe('two worker processes under concurrent writes', () => {
  it('apply eight concurrent commits of different files to one branch, each on the tip it finds', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST', `${PROJECT}/repository/files/${enc(`eight/${i}.txt`)}`, {
          branch: 'develop',
          content: `writer ${i}\n`,
          commit_message: `Eight writers: ${i}`,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const titles = (await started?.gitLog('develop')) ?? [];
    for (let i = 0; i < 8; i++) expect(titles).toContain(`Eight writers: ${i}`);
    const contents = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('GET', `${PROJECT}/repository/files/${enc(`eight/${i}.txt`)}/raw?ref=develop`),
      ),
    );
    expect(contents.map((a) => [a.status, a.body])).toEqual(
      Array.from({ length: 8 }, (_, i) => [200, `writer ${i}\n`]),
    );
  });

  it('never answer 5xx, and keep every acknowledged write', async () => {
    const deadline = Date.now() + WRITE_FOR_MS;
    // Commits of new files, each checked afterwards by reading the file back from its branch.
    const commitWriter = (branch: string, name: string, extra: (i: number) => Record<string, unknown>) =>
      writer(deadline, async (i) => {
        const file = `mixed/${name}-${i}.txt`;
        const answer = await call('POST', `${PROJECT}/repository/files/${enc(file)}`, {
          branch,
          content: `${file}\n`,
          commit_message: `Add ${file}`,
          ...extra(i),
        });
        const raw = `${PROJECT}/repository/files/${enc(file)}/raw?ref=${enc(branch)}`;
        return {
          what: `commit ${file} to ${branch}`,
          answer,
          expected: 201,
          checks: [{ path: raw, status: 200, body: `${file}\n` }],
        };
      });
    const flagsSet: string[] = [];

    const writers: Promise<Outcome>[] = [
      // Three writers on one branch, without last_commit_id: the branch moves under each of them.
      ...['a', 'b', 'c'].map((name) => commitWriter('develop', name, () => ({}))),
      // Two writers with a branch each, created by their first commit.
      ...['d', 'e'].map((name) =>
        commitWriter(`mixed-${name}`, name, (i) => (i === 0 ? { start_branch: 'main' } : {})),
      ),
      // Branches created, every other one deleted again.
      writer(deadline, async (i) => {
        const name = `mixed/branch-${i}`;
        const created = await call('POST', `${PROJECT}/repository/branches`, { branch: name, ref: 'main' });
        if (created.status !== 201 || i % 2 === 0)
          return {
            what: `create branch ${name}`,
            answer: created,
            expected: 201,
            checks: [{ path: `${PROJECT}/repository/branches/${enc(name)}`, status: 200 }],
          };
        return {
          what: `delete branch ${name}`,
          answer: await call('DELETE', `${PROJECT}/repository/branches/${enc(name)}`),
          expected: 204,
          checks: [{ path: `${PROJECT}/repository/branches/${enc(name)}`, status: 404 }],
        };
      }),
      // Protected branches, every other one unprotected again.
      writer(deadline, async (i) => {
        const name = `mixed-protected-${i}`;
        const created = await call('POST', `${PROJECT}/protected_branches`, {
          name,
          push_access_level: 40,
        });
        if (created.status !== 201 || i % 2 === 0)
          return {
            what: `protect ${name}`,
            answer: created,
            expected: 201,
            checks: [{ path: `${PROJECT}/protected_branches/${enc(name)}`, status: 200 }],
          };
        return {
          what: `unprotect ${name}`,
          answer: await call('DELETE', `${PROJECT}/protected_branches/${enc(name)}`),
          expected: 204,
          checks: [{ path: `${PROJECT}/protected_branches/${enc(name)}`, status: 404 }],
        };
      }),
      // Pipelines, which the job-running worker then advances (more writes).
      writer(deadline, async () => {
        const answer = await call('POST', `${PROJECT}/pipeline`, { ref: 'main' });
        const id = answer.status === 201 ? (JSON.parse(answer.body) as { id: number }).id : 0;
        return {
          what: 'create pipeline',
          answer,
          expected: 201,
          checks: [{ path: `${PROJECT}/pipelines/${id}`, status: 200 }],
        };
      }),
      // Deploy keys.
      writer(deadline, async (i) => {
        const answer = await call('POST', `${PROJECT}/deploy_keys`, {
          title: `mixed ${i}`,
          key: newEd25519Key(),
        });
        const id = answer.status === 201 ? (JSON.parse(answer.body) as { id: number }).id : 0;
        return {
          what: `add deploy key ${i}`,
          answer,
          expected: 201,
          checks: [{ path: `${PROJECT}/deploy_keys/${id}`, status: 200 }],
        };
      }),
      // Export requests (each queues a job that the job-running worker carries out), not too many.
      writer(deadline, async (i) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return {
          what: `export ${i}`,
          answer: await call('POST', `${PROJECT}/export`, { description: `mixed ${i}` }),
          expected: 202,
          checks: [{ path: `${PROJECT}/export`, status: 200 }],
        };
      }),
      // Feature flags, each set once, and one flag switched on and off by turns.
      writer(deadline, async (i) => {
        const name = i % 2 === 0 ? `mixed_flag_${i}` : 'mixed_flag_switched';
        const answer = await call('POST', `/api/v4/features/${name}`, { value: i % 4 !== 3 }, ADMIN);
        if (answer.status === 201) flagsSet.push(name);
        return { what: `set feature ${name}`, answer, expected: 201 };
      }),
    ];
    const outcomes = await Promise.all(writers);

    const unexpected = outcomes.flatMap((outcome) => outcome.unexpected);
    expect(unexpected.filter((answer) => /: 5\d\d /.test(answer))).toEqual([]);
    expect(unexpected).toEqual([]);

    const checks = outcomes.flatMap((outcome) => outcome.checks);
    console.log(
      `concurrent writes: ${outcomes.map((outcome) => outcome.checks.length).join(' + ')} acknowledged`,
    );
    expect(checks.length).toBeGreaterThan(50);
    // Read back a few at a time (the order does not matter: nothing writes any more).
    const missing: string[] = [];
    const pending = [...checks];
    const reader = async (): Promise<void> => {
      for (let check = pending.pop(); check; check = pending.pop()) {
        const answer = await call('GET', check.path);
        if (answer.status !== check.status || (check.body !== undefined && answer.body !== check.body))
          missing.push(`${check.path}: ${answer.status} ${answer.body.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: 6 }, reader));
    expect(missing).toEqual([]);

    // Every feature flag set is listed (one page holds them all).
    const features = await call('GET', '/api/v4/features?per_page=100', undefined, ADMIN);
    expect(features.status).toBe(200);
    const names = new Set((JSON.parse(features.body) as { name: string }[]).map((feature) => feature.name));
    expect(flagsSet.length).toBeGreaterThan(2);
    expect(flagsSet.filter((name) => !names.has(name))).toEqual([]);
  }, 60_000);
});
