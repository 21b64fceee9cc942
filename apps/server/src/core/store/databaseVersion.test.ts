import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase, todayIso } from './database.js';
import { CachedUntilDatabaseChange, databaseVersion, readsAfterEachTurn } from './databaseVersion.js';

let dataDir: string;
let db: Db;
let other: Db | undefined;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-version-'));
  db = await openDatabase(dataDir);
});

afterEach(async () => {
  await db.destroy();
  await other?.destroy();
  other = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function addFeature(target: Db, name: string): Promise<void> {
  await target
    .insertInto('features')
    .values({ name, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' })
    .execute();
}

/** A cache whose values count how often they were computed. */
function countingCache(): { cache: CachedUntilDatabaseChange<number>; read: () => Promise<number> } {
  const cache = new CachedUntilDatabaseChange<number>(10);
  let computed = 0;
  return { cache, read: () => cache.get(db, 'key', async () => ++computed) };
}

describe('databaseVersion', () => {
  it('stays the same while nothing is written and changes with a write of this connection', async () => {
    const before = databaseVersion(db);
    await db.selectFrom('features').selectAll().execute();
    expect(databaseVersion(db)).toBe(before);
    await addFeature(db, 'one');
    expect(databaseVersion(db)).not.toBe(before);
  });

  it('changes, by the next turn of the event loop, with a commit of another connection', async () => {
    other = await openDatabase(dataDir);
    await nextTurn();
    const before = databaseVersion(db);
    await addFeature(other, 'from-elsewhere');
    await nextTurn();
    expect(databaseVersion(db)).not.toBe(before);
  });

  it('is unknown inside a transaction', async () => {
    await db.transaction().execute(async (trx) => {
      await addFeature(trx, 'inside');
      expect(databaseVersion(db)).toBeUndefined();
    });
    expect(databaseVersion(db)).toBeDefined();
  });
});

describe('CachedUntilDatabaseChange', () => {
  it('computes a value once until the database changes', async () => {
    const { read } = countingCache();
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    await addFeature(db, 'changed');
    expect(await read()).toBe(2);
    expect(await read()).toBe(2);
  });

  it('peeks at a kept value only while the database is as it was', async () => {
    const { cache, read } = countingCache();
    expect(cache.peek(db, 'key')).toBeUndefined();
    await read();
    expect(cache.peek(db, 'key')).toBe(1);
    expect(cache.peek(db, 'other')).toBeUndefined();
    await addFeature(db, 'changed');
    expect(cache.peek(db, 'key')).toBeUndefined();
    await db.transaction().execute(async () => {
      expect(cache.peek(db, 'key')).toBeUndefined();
    });
  });

  it('does not keep a value when a write happened while it was computed', async () => {
    const cache = new CachedUntilDatabaseChange<string>(10);
    const first = await cache.get(db, 'key', async () => {
      await addFeature(db, 'during');
      return 'stale';
    });
    expect(first).toBe('stale');
    expect(await cache.get(db, 'key', async () => 'fresh')).toBe('fresh');
  });

  it('keeps nothing read inside a transaction', async () => {
    const cache = new CachedUntilDatabaseChange<string>(10);
    await db.transaction().execute(async () => {
      expect(await cache.get(db, 'key', async () => 'inside')).toBe('inside');
    });
    expect(await cache.get(db, 'key', async () => 'after')).toBe('after');
  });

  it('drops its entries when it is full instead of growing', async () => {
    const cache = new CachedUntilDatabaseChange<string>(2);
    await cache.get(db, 'a', async () => 'a1');
    await cache.get(db, 'b', async () => 'b1');
    await cache.get(db, 'c', async () => 'c1');
    expect(await cache.get(db, 'a', async () => 'a2')).toBe('a2');
    expect(await cache.get(db, 'c', async () => 'c2')).toBe('c1');
  });
});

describe('readsAfterEachTurn', () => {
  /** A read whose runs are counted and end when the test says. */
  function controlledRead(maxAtOnce: number) {
    const runs: { end: (error?: Error) => void }[] = [];
    const read = readsAfterEachTurn(
      () =>
        new Promise<void>((resolve, reject) => {
          runs.push({ end: (error) => (error ? reject(error) : resolve()) });
        }),
      maxAtOnce,
    );
    return { runs, read };
  }
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('serves the callers of one turn with one read, begun after the turn, after every one of them came', async () => {
    const { runs, read } = controlledRead(3);
    const settled: string[] = [];
    const calls = ['first', 'second', 'third'].map((name) => read().then(() => settled.push(name)));
    // Nothing begins while the turn's callers are still coming.
    expect(runs).toHaveLength(0);
    await nextTurn();
    expect(runs).toHaveLength(1);
    runs[0]?.end();
    await Promise.all(calls);
    expect(settled).toEqual(['first', 'second', 'third']);
    expect(runs).toHaveLength(1);
  });

  it('gives a caller of a later turn a read of its own, begun after it came, beside the one under way', async () => {
    const { runs, read } = controlledRead(3);
    const settled: string[] = [];
    const early = read().then(() => settled.push('early'));
    await nextTurn();
    const late = read().then(() => settled.push('late'));
    await nextTurn();
    // The early read is still under way: the late caller does not wait for its end to get a read begun after it.
    expect(runs).toHaveLength(2);
    runs[1]?.end();
    await late;
    expect(settled).toEqual(['late']);
    runs[0]?.end();
    await early;
    expect(settled).toEqual(['late', 'early']);
  });

  it('runs at most maxAtOnce reads; the callers beyond share the next read, begun when one ends', async () => {
    const { runs, read } = controlledRead(2);
    const calls: Promise<void>[] = [];
    for (let turn = 0; turn < 4; turn++) {
      calls.push(read());
      await nextTurn();
    }
    expect(runs).toHaveLength(2);
    calls.push(read());
    runs[0]?.end();
    await calls[0];
    await nextTurn();
    // The third and fourth turns' callers and the one that came since: one read for all of them.
    expect(runs).toHaveLength(3);
    runs[1]?.end();
    runs[2]?.end();
    await Promise.all(calls);
    expect(runs).toHaveLength(3);
  });

  it('fails the callers of a read that throws at once, and goes on', async () => {
    let calls = 0;
    const read = readsAfterEachTurn(() => {
      calls++;
      if (calls === 1) throw new Error('thrown');
      return Promise.resolve();
    }, 1);
    await expect(read()).rejects.toThrow('thrown');
    await expect(read()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });

  it('passes a failure to the callers of its read only, and reads again for the next caller', async () => {
    const { runs, read } = controlledRead(3);
    const failed = read();
    await nextTurn();
    const waiting = read();
    await nextTurn();
    runs[0]?.end(new Error('gone'));
    await expect(failed).rejects.toThrow('gone');
    runs[1]?.end();
    await expect(waiting).resolves.toBeUndefined();
    const later = read();
    await nextTurn();
    expect(runs).toHaveLength(3);
    runs[2]?.end();
    await expect(later).resolves.toBeUndefined();
  });
});

describe('todayIso', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('follows the clock across midnight, forwards and backwards', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T23:59:59.999Z'));
    expect(todayIso()).toBe('2026-03-01');
    vi.setSystemTime(new Date('2026-03-02T00:00:00.000Z'));
    expect(todayIso()).toBe('2026-03-02');
    vi.setSystemTime(new Date('2025-12-31T12:00:00.000Z'));
    expect(todayIso()).toBe('2025-12-31');
  });
});
