import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase } from '../store/database.js';
import { SQLite } from '../store/sqliteDriver.js';
import { type TestDatabase, testDatabaseOf, testsWantPostgres } from '../store/testPostgres.js';
import { JobQueue } from './queue.js';

let dataDir: string;
let databases: Db[];
/** The test's PostgreSQL database when the tests run on PostgreSQL (COLLAB_TEST_DATABASE=postgres). */
let database: TestDatabase | undefined;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-queue-'));
  databases = [];
  database = await testDatabaseOf(dataDir);
});

afterEach(async () => {
  await Promise.all(databases.map((db) => db.destroy()));
  await rm(dataDir, { recursive: true, force: true });
  await database?.drop();
});

/** A connection of its own to the test's database, as another process (or instance) has. */
async function ownConnection(): Promise<Db> {
  const db = await openDatabase(dataDir, database?.url);
  databases.push(db);
  return db;
}

/** A queue on a connection of its own, as another process on the same data directory has. */
async function queueOnOwnConnection(
  runs: Map<number, number>,
  options: { leaseMs?: number; jobMs?: number } = {},
): Promise<JobQueue> {
  const queue = new JobQueue(await ownConnection(), { pollIntervalMs: 5, leaseMs: options.leaseMs });
  queue.register('count', async (payload) => {
    const { n } = payload as { n: number };
    runs.set(n, (runs.get(n) ?? 0) + 1);
    // A job that takes a moment, so the other queue looks for work meanwhile.
    await new Promise((resolve) => setTimeout(resolve, options.jobMs ?? 1));
  });
  return queue;
}

describe('JobQueue', () => {
  it('runs each job once when queues of two processes share the database', async () => {
    const runs = new Map<number, number>();
    const first = await queueOnOwnConnection(runs);
    const second = await queueOnOwnConnection(runs);
    for (let n = 0; n < 40; n++) await first.enqueue('count', { n });
    await Promise.all([first.start(), second.start()]);
    await Promise.all([first.idle(), second.idle()]);
    await Promise.all([first.stop(), second.stop()]);
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });

  it('queues a job once while the same one waits, and again once it has started', async () => {
    const runs = new Map<number, number>();
    const first = await queueOnOwnConnection(runs);
    const second = await queueOnOwnConnection(runs);
    // Two processes asking at once, and asking again: one waiting job per payload.
    await Promise.all([
      first.enqueueUnlessWaiting('count', { n: 1 }),
      second.enqueueUnlessWaiting('count', { n: 1 }),
      first.enqueueUnlessWaiting('count', { n: 2 }),
    ]);
    await first.enqueueUnlessWaiting('count', { n: 1 });
    await first.start();
    await first.idle();
    expect(Object.fromEntries(runs)).toEqual({ 1: 1, 2: 1 });
    // Done: a new request queues it again.
    await second.enqueueUnlessWaiting('count', { n: 1 });
    await first.idle();
    await first.stop();
    expect(runs.get(1)).toBe(2);
  });

  it('never takes a live process its running job, and runs again a dead process job once its lease is over', async () => {
    const runs = new Map<number, number>();
    // A job that runs for three leases: its queue keeps touching it (every quarter lease), so the other queue
    // must leave it alone. The lease is long enough that a loaded machine's pauses never let a touch come late.
    const first = await queueOnOwnConnection(runs, { leaseMs: 800, jobMs: 2_400 });
    const second = await queueOnOwnConnection(runs, { leaseMs: 800 });
    await first.enqueue('count', { n: 1 });
    await first.start();
    await vi.waitFor(() => expect(runs.get(1)).toBe(1));
    await second.start();
    await first.idle();
    await second.idle();
    expect(runs.get(1)).toBe(1);
    // A process killed while running job 2: its row says running, and nobody touches it any more.
    const db = await ownConnection();
    const killedAt = new Date(Date.now() - 150).toISOString();
    await db
      .insertInto('jobs')
      .values({
        kind: 'count',
        payload: JSON.stringify({ n: 2 }),
        state: 'running',
        run_at: killedAt,
        attempts: 1,
        last_error: null,
        created_at: killedAt,
        updated_at: killedAt,
      })
      .execute();
    const startedAt = Date.now();
    await vi.waitFor(() => expect(runs.get(2)).toBe(1), { timeout: 5_000, interval: 10 });
    // Not before the lease (800 ms from the kill) was over.
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(600);
    await Promise.all([first.idle(), second.idle()]);
    await Promise.all([first.stop(), second.stop()]);
    expect(Object.fromEntries(runs)).toEqual({ 1: 1, 2: 1 });
    const states = await db.selectFrom('jobs').select('state').orderBy('id').execute();
    expect(states.map((row) => row.state)).toEqual(['done', 'done']);
  });

  it('holds only the job it runs: the rest of its batch goes to another queue meanwhile', async () => {
    const runs = new Map<number, number>();
    // The first queue's jobs take 3 s each: were its whole batch claimed with the first job, the second
    // queue could start none of them before the first had finished them (or, killed, before their lease).
    const first = await queueOnOwnConnection(runs, { jobMs: 3_000 });
    for (let n = 0; n < 5; n++) await first.enqueue('count', { n });
    await first.start();
    await vi.waitFor(() => expect(runs.get(0)).toBe(1), { timeout: 5_000, interval: 5 });
    const db = await ownConnection();
    const states = await db.selectFrom('jobs').select('state').orderBy('id').execute();
    expect(states.map((row) => row.state)).toEqual(['running', 'queued', 'queued', 'queued', 'queued']);
    const second = await queueOnOwnConnection(runs, { jobMs: 1 });
    await second.start();
    await vi.waitFor(() => expect(runs.size).toBe(5), { timeout: 2_000, interval: 5 });
    await Promise.all([first.stop(), second.stop()]);
    expect(Object.fromEntries(runs)).toEqual({ 0: 1, 1: 1, 2: 1, 3: 1, 4: 1 });
  });

  it('leaves the jobs it had not started queued when stopped, for another queue to run once', async () => {
    const runs = new Map<number, number>();
    const first = await queueOnOwnConnection(runs, { jobMs: 100 });
    for (let n = 0; n < 5; n++) await first.enqueue('count', { n });
    await first.start();
    await vi.waitFor(() => expect(runs.get(0)).toBe(1), { timeout: 5_000, interval: 5 });
    await first.stop();
    const db = await ownConnection();
    const rows = await db.selectFrom('jobs').select(['state', 'attempts']).orderBy('id').execute();
    // The first job finished as the queue stopped; the rest of its batch still waits, never attempted.
    expect(rows[0]).toEqual({ state: 'done', attempts: 1 });
    expect(rows.slice(1)).toEqual(Array(4).fill({ state: 'queued', attempts: 0 }));
    const second = await queueOnOwnConnection(runs, { jobMs: 1 });
    await second.start();
    await second.idle();
    await second.stop();
    expect(Object.fromEntries(runs)).toEqual({ 0: 1, 1: 1, 2: 1, 3: 1, 4: 1 });
    const states = await db.selectFrom('jobs').select('state').execute();
    expect(states.map((row) => row.state)).toEqual(Array(5).fill('done'));
  });

  it('goes on looking for due jobs after its looks failed (its database unreachable), logging once', async () => {
    const runs = new Map<number, number>();
    const queue = await queueOnOwnConnection(runs);
    const db = databases[0] as Db;
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await queue.start();
      // Every look fails while the table is away, as every query does while the database restarts.
      await sql`alter table jobs rename to jobs_away`.execute(db);
      await vi.waitFor(() => expect(log).toHaveBeenCalledTimes(1));
      // Many more polls (5 ms each) fail meanwhile, without another line.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(log).toHaveBeenCalledTimes(1);
      expect(String(log.mock.calls[0]?.[0])).toContain('looking for due jobs failed');
      await sql`alter table jobs_away rename to jobs`.execute(db);
      await queue.enqueue('count', { n: 1 });
      await vi.waitFor(() => expect(runs.get(1)).toBe(1));
      await queue.idle();
      await queue.stop();
      expect(log).toHaveBeenCalledTimes(2);
      expect(String(log.mock.calls[1]?.[0])).toContain('works again');
    } finally {
      log.mockRestore();
    }
  });

  // SQLite's write lock, held by another connection of the same file.
  it.skipIf(testsWantPostgres())(
    'claims, runs and finishes jobs while another process keeps taking the write lock',
    async () => {
      const runs = new Map<number, number>();
      const queue = await queueOnOwnConnection(runs);
      for (let n = 0; n < 10; n++) await queue.enqueue('count', { n });
      // Another process that holds the write lock 30 ms at a time, 20 times: no claim or update may fail.
      const other = new SQLite(join(dataDir, 'collab.sqlite3'));
      other.pragma('busy_timeout = 5000');
      const busy = (async () => {
        for (let i = 0; i < 20; i++) {
          other.exec('begin immediate');
          await new Promise((resolve) => setTimeout(resolve, 30));
          other.exec('commit');
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      })();
      await queue.start();
      await busy;
      await queue.idle();
      await queue.stop();
      other.close();
      expect([...runs.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, n) => n));
      const states = await databases[0]?.selectFrom('jobs').select('state').execute();
      expect(states?.map((row) => row.state)).toEqual(Array(10).fill('done'));
    },
  );
});
