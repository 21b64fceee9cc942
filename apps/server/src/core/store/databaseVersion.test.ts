import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase, todayIso } from './database.js';
import { CachedUntilDatabaseChange, coalesced, databaseVersion } from './databaseVersion.js';

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

describe('coalesced', () => {
  /** A read whose runs are counted and end when the test says. */
  function controlledRead() {
    const runs: { end: (error?: Error) => void }[] = [];
    const read = coalesced(
      () =>
        new Promise<void>((resolve, reject) => {
          runs.push({ end: (error) => (error ? reject(error) : resolve()) });
        }),
    );
    return { runs, read };
  }

  it('runs once for the callers that come while a run is under way, after that run, never beside it', async () => {
    const { runs, read } = controlledRead();
    const settled: string[] = [];
    const first = read().then(() => settled.push('first'));
    const second = read().then(() => settled.push('second'));
    const third = read().then(() => settled.push('third'));
    expect(runs).toHaveLength(1);
    runs[0]?.end();
    await first;
    expect(settled).toEqual(['first']);
    // The callers that came during the first run get a run that began after they came.
    expect(runs).toHaveLength(2);
    runs[1]?.end();
    await Promise.all([second, third]);
    expect(settled).toEqual(['first', 'second', 'third']);
    expect(runs).toHaveLength(2);
  });

  it('runs again for a caller that comes once nothing is under way, and passes a failure to its callers', async () => {
    const { runs, read } = controlledRead();
    const failed = read();
    const waiting = read();
    runs[0]?.end(new Error('gone'));
    await expect(failed).rejects.toThrow('gone');
    runs[1]?.end(new Error('again'));
    await expect(waiting).rejects.toThrow('again');
    const later = read();
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
