// The seeded templates of the tests on PostgreSQL (COLLAB_TEST_DATABASE=postgres, the run's PostgreSQL): a
// kind is seeded once, however many servers start from it at once, and each new data directory gets a copy
// of the template's database and directory of its own. On SQLite there is none: the server copies its own.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from './database.js';
import {
  type SeedTemplate,
  seededTestDatabaseOf,
  type TestDatabase,
  testsWantPostgres,
} from './testPostgres.js';

let dataDirs: string[];
let databases: TestDatabase[];
let opened: Db[];

async function newDataDir(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'collab-seeded-'));
  dataDirs.push(dataDir);
  return dataDir;
}

async function features(dataDir: string, database: TestDatabase): Promise<string[]> {
  const db = await openDatabase(dataDir, database.url);
  opened.push(db);
  const rows = await db.selectFrom('features').select('name').orderBy('name').execute();
  return rows.map((row) => row.name);
}

beforeEach(() => {
  dataDirs = [];
  databases = [];
  opened = [];
});

afterEach(async () => {
  await Promise.all(opened.map((db) => db.destroy()));
  await Promise.all(databases.map((database) => database.drop()));
  await Promise.all(dataDirs.map((dataDir) => rm(dataDir, { recursive: true, force: true })));
});

describe.skipIf(!testsWantPostgres())('seededTestDatabaseOf', () => {
  it('seeds a kind once, and gives each new data directory a copy of its database and directory', async () => {
    let seeded = 0;
    const seed: SeedTemplate = async ({ dataDir, databaseUrl }) => {
      seeded += 1;
      await mkdir(dataDir, { recursive: true });
      await writeFile(join(dataDir, 'seeded.txt'), 'seeded\n');
      const db = await openDatabase(dataDir, databaseUrl);
      const at = '2026-01-01T00:00:00.000Z';
      await db.insertInto('features').values({ name: 'seeded', created_at: at, updated_at: at }).execute();
      await db.destroy();
    };
    const kind = `test-${randomUUID()}`;
    const [first, second] = [await newDataDir(), await newDataDir()];
    // Two servers of the run start from the kind at once: one seeds it, the other waits for it.
    const [one, other] = await Promise.all([
      seededTestDatabaseOf(first, kind, seed),
      seededTestDatabaseOf(second, kind, seed),
    ]);
    if (!one || !other) throw new Error('no database on PostgreSQL');
    databases.push(one, other);
    expect(seeded).toBe(1);
    for (const dataDir of [first, second])
      expect(await readFile(join(dataDir, 'seeded.txt'), 'utf8')).toBe('seeded\n');
    expect(await features(first, one)).toEqual(['seeded']);
    // Copies, not one database: a write to one is not in the other.
    const db = await openDatabase(first, one.url);
    opened.push(db);
    const at = '2026-01-02T00:00:00.000Z';
    await db.insertInto('features').values({ name: 'later', created_at: at, updated_at: at }).execute();
    expect(await features(first, one)).toEqual(['later', 'seeded']);
    expect(await features(second, other)).toEqual(['seeded']);
  });
});

describe.skipIf(testsWantPostgres())('seededTestDatabaseOf on SQLite', () => {
  it('gives no database and seeds nothing: the server copies its own template', async () => {
    let seeded = 0;
    const database = await seededTestDatabaseOf(await newDataDir(), 'demo', async () => {
      seeded += 1;
    });
    expect([database, seeded]).toEqual([undefined, 0]);
  });
});
