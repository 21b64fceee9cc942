// The start-up sweep of merge locks (locks.ts) with two instances on one database and one data directory
// (separate processes, each running jobs: SQLite's file shared, or the run's PostgreSQL): when the second
// instance starts while the first holds a young lock (a merge it is making), the second's sweep leaves that
// lock alone, and a lock left behind is released once, although the first instance's reads race the sweep
// to release it.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase } from '../../core/store/database.js';
import { type TestDatabase, testDatabaseOf } from '../../core/store/testPostgres.js';
import { callOnNewConnection, startWorkerServer } from '../../workerServer.testSupport.js';
import { MERGE_LOCK_TIMEOUT_MS } from './locks.js';

const MAINTAINER = 'collab-demo-maintainer-token';
const MERGE_REQUESTS = '/api/v4/projects/acme%2Fwebsite/merge_requests';
const SWEEP = 'mergeRequests.releaseStaleLocks';

let dataDir: string;
let database: TestDatabase | undefined;
let db: Db;
const instances: { process: ChildProcess; origin: string }[] = [];

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function state(instance: number, iid: number): Promise<string> {
  const answer = await callOnNewConnection(
    instances[instance]?.origin ?? '',
    'GET',
    `${MERGE_REQUESTS}/${iid}`,
    undefined,
    MAINTAINER,
  );
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { state: string }).state;
}

/** The website project's merge request with this iid. */
async function mergeRequest(iid: number) {
  return db
    .selectFrom('merge_requests as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .select(['m.id', 'm.sha', 'm.state'])
    .where('p.path', '=', 'website')
    .where('m.iid', '=', iid)
    .executeTakeFirstOrThrow();
}

async function mergedNotes(id: number): Promise<number> {
  const rows = await db
    .selectFrom('notes')
    .select('id')
    .where('noteable_type', '=', 'MergeRequest')
    .where('noteable_id', '=', id)
    .where('system', '=', 1)
    .where('body', '=', 'merged')
    .execute();
  return rows.length;
}

/** Sweeps due or running: none once every instance's sweep at start has run. */
async function sweepsDue(): Promise<number> {
  const rows = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', SWEEP)
    .where((eb) =>
      eb.or([
        eb('state', '=', 'running'),
        eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', new Date().toISOString())]),
      ]),
    )
    .execute();
  return rows.length;
}

describe('the merge-lock sweep of a second instance', () => {
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'collab-lock-instances-'));
    database = await testDatabaseOf(dataDir);
    const first = await startWorkerServer(dataDir, 1, database?.url);
    instances.push({ process: first.primary, origin: first.origin });
    db = await openDatabase(dataDir, database?.url);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => stop(instance.process)));
    await db?.destroy();
    await rm(dataDir, { recursive: true, force: true });
    await database?.drop();
  }, 30_000);

  it('leaves the young lock of a merge in progress and releases a stale one exactly once', async () => {
    await vi.waitFor(async () => expect(await sweepsDue()).toBe(0), { timeout: 30_000 });
    const now = Date.now();
    // The first instance is merging `Add a changelog` (locked a minute ago); `Merge the already merged
    // feature` was locked by a process that died after git merged it, longer ago than the timeout.
    const young = await mergeRequest(1);
    const stale = await mergeRequest(3);
    expect(stale.sha).not.toBeNull();
    await db
      .updateTable('merge_requests')
      .set({ state: 'locked', merge_locked_at: new Date(now - 60_000).toISOString() })
      .where('id', '=', young.id)
      .execute();
    await db
      .updateTable('merge_requests')
      .set({
        state: 'locked',
        merge_locked_at: new Date(now - MERGE_LOCK_TIMEOUT_MS - 60_000).toISOString(),
        merged_at: null,
        merged_by_id: null,
        merge_commit_sha: null,
      })
      .where('id', '=', stale.id)
      .execute();
    const notesBefore = await mergedNotes(stale.id);

    // The second instance starts (its sweep is queued at start) while the first reads the stale one, which
    // releases a stale lock too.
    const [second, ...readsOfFirst] = await Promise.all([
      startWorkerServer(dataDir, 1, database?.url),
      state(0, 3),
      state(0, 3),
    ]);
    instances.push({ process: second.primary, origin: second.origin });
    await vi.waitFor(async () => expect(await sweepsDue()).toBe(0), { timeout: 60_000 });
    for (const read of readsOfFirst) expect(['locked', 'merged']).toContain(read);

    expect(await state(1, 3)).toBe('merged');
    expect(await mergedNotes(stale.id)).toBe(notesBefore + 1);
    expect(await state(1, 1)).toBe('locked');
    expect(await state(0, 1)).toBe('locked');
    // One sweep waits for the young lock to become stale, whichever instance queued it.
    const later = await db
      .selectFrom('jobs')
      .select('run_at')
      .where('kind', '=', SWEEP)
      .where('state', '=', 'queued')
      .execute();
    expect(later).toHaveLength(1);
    expect(Date.parse(later[0]?.run_at ?? '')).toBeGreaterThan(now + MERGE_LOCK_TIMEOUT_MS - 60_000);
  });
});
