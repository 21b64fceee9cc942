// The write lock as another process sees it: a second SQLite connection on the same file (without a busy
// timeout, so it fails at once where it would have to wait).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from './database.js';
import { SQLite, type SqliteDatabase } from './sqliteDriver.js';
import { isBusyError, retryWhileBusy } from './writeLocking.js';

let dataDir: string;
let db: Db;
let other: SqliteDatabase;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-write-lock-'));
  db = await openDatabase(dataDir);
  other = new SQLite(join(dataDir, 'collab.sqlite3'));
  other.pragma('busy_timeout = 0');
});

afterEach(async () => {
  other.close();
  await db.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

const NOW = '2026-01-01T00:00:00.000Z';
const insertFeature = (name: string) => () =>
  other.prepare('insert into features (name, created_at, updated_at) values (?, ?, ?)').run(name, NOW, NOW);

async function featureNames(): Promise<string[]> {
  return (await db.selectFrom('features').select('name').orderBy('name').execute()).map((row) => row.name);
}

/** Holds the write lock in the other connection for `ms`, then commits `name`. */
function holdWriteLock(name: string, ms: number): Promise<void> {
  other.exec('begin immediate');
  insertFeature(name)();
  return new Promise((resolve) =>
    setTimeout(() => {
      other.exec('commit');
      resolve();
    }, ms),
  );
}

describe('transactions', () => {
  it('take the write lock at their start, before their first write', async () => {
    let otherWrite: unknown;
    await db.transaction().execute(async (trx) => {
      await trx.selectFrom('features').selectAll().execute();
      try {
        insertFeature('meanwhile')();
      } catch (error) {
        otherWrite = error;
      }
      await trx.insertInto('features').values({ name: 'mine', created_at: NOW, updated_at: NOW }).execute();
    });
    expect(isBusyError(otherWrite)).toBe(true);
    expect(await featureNames()).toEqual(['mine']);
  });

  it('wait for a lock held elsewhere, however long it is held, instead of failing', async () => {
    const released = holdWriteLock('elsewhere', 400);
    const started = Date.now();
    await db.transaction().execute(async (trx) => {
      // A deferred transaction would have read an old snapshot here and then failed to write.
      const seen = await trx.selectFrom('features').select('name').execute();
      await trx
        .insertInto('features')
        .values({ name: `after-${seen.length}`, created_at: NOW, updated_at: NOW })
        .execute();
    });
    await released;
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(await featureNames()).toEqual(['after-1', 'elsewhere']);
  });

  it('roll back entirely when they fail', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('features').values({ name: 'half', created_at: NOW, updated_at: NOW }).execute();
        throw new Error('failed midway');
      }),
    ).rejects.toThrow('failed midway');
    expect(await featureNames()).toEqual([]);
    // The lock is free again.
    insertFeature('free')();
  });
});

describe('statements outside transactions', () => {
  it('wait for a lock held elsewhere', async () => {
    const released = holdWriteLock('elsewhere', 300);
    await db.insertInto('features').values({ name: 'single', created_at: NOW, updated_at: NOW }).execute();
    await released;
    expect(await featureNames()).toEqual(['elsewhere', 'single']);
  });
});

describe('retryWhileBusy', () => {
  it('retries a busy attempt, and gives up with the busy error at its deadline', async () => {
    const third = new SQLite(join(dataDir, 'collab.sqlite3'));
    third.pragma('busy_timeout = 0');
    const insert = (name: string) => async () =>
      third
        .prepare('insert into features (name, created_at, updated_at) values (?, ?, ?)')
        .run(name, NOW, NOW);
    try {
      const released = holdWriteLock('elsewhere', 100);
      await retryWhileBusy(insert('retried'), 5_000);
      await released;
      other.exec('begin immediate');
      const started = Date.now();
      await expect(retryWhileBusy(insert('never'), 200)).rejects.toSatisfy(isBusyError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      other.exec('rollback');
      expect(await featureNames()).toEqual(['elsewhere', 'retried']);
    } finally {
      third.close();
    }
  });

  it('passes other errors through at once', async () => {
    let attempts = 0;
    await expect(
      retryWhileBusy(async () => {
        attempts += 1;
        throw new Error('not busy');
      }),
    ).rejects.toThrow('not busy');
    expect(attempts).toBe(1);
  });
});
