import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase, todayIso } from './database.js';
import { CachedUntilDatabaseChange, databaseVersion } from './databaseVersion.js';

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
