// The PostgreSQL side of core/store, on the test run's PostgreSQL (COLLAB_TEST_DATABASE=postgres; skipped on
// SQLite): the migrations' types, write transactions one at a time, a unique violation told, out-of-range
// numbers compared as SQLite compares them, text with U+0000 taken, and the database version following
// another instance's writes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, isUniqueViolation, openDatabase } from './database.js';
import { databaseVersion, refreshDatabaseVersion } from './databaseVersion.js';
import { type TestDatabase, testDatabaseOf, testsWantPostgres } from './testPostgres.js';

let dataDir: string;
let database: TestDatabase | undefined;
let opened: Db[];

async function open(): Promise<Db> {
  const db = await openDatabase(dataDir, database?.url);
  opened.push(db);
  return db;
}

async function addFeature(target: Db, name: string): Promise<void> {
  await target
    .insertInto('features')
    .values({ name, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' })
    .execute();
}

describe.skipIf(!testsWantPostgres())('the PostgreSQL database', () => {
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'collab-postgres-'));
    database = await testDatabaseOf(dataDir);
    opened = [];
  });

  afterEach(async () => {
    await Promise.all(opened.map((db) => db.destroy()));
    await rm(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  it('has 64-bit integers and bigserial keys where the migrations wrote integer and autoIncrement()', async () => {
    const db = await open();
    const { rows } = await sql<{ column_name: string; data_type: string; column_default: string | null }>`
      select column_name, data_type, column_default from information_schema.columns
      where table_name = 'projects' and column_name in ('id', 'namespace_id', 'archived')
      order by column_name`.execute(db);
    expect(rows.map((row) => [row.column_name, row.data_type])).toEqual([
      ['archived', 'bigint'],
      ['id', 'bigint'],
      ['namespace_id', 'bigint'],
    ]);
    expect(rows.find((row) => row.column_name === 'id')?.column_default).toMatch(/^nextval/);
  });

  it('runs write transactions of two instances one after the other: no read-then-write loses an update', async () => {
    const [first, second] = [await open(), await open()];
    if (!first || !second) throw new Error('not opened');
    await addFeature(first, 'counter');
    await first.updateTable('features').set({ updated_at: '0' }).where('name', '=', 'counter').execute();
    // Each transaction reads the counter, waits, and writes it plus one: interleaved, updates would be lost.
    const increment = (db: Db) =>
      db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('features')
          .select('updated_at')
          .where('name', '=', 'counter')
          .executeTakeFirstOrThrow();
        await new Promise((resolve) => setTimeout(resolve, 5));
        const next = String(Number(row.updated_at) + 1);
        await trx.updateTable('features').set({ updated_at: next }).where('name', '=', 'counter').execute();
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => increment(i % 2 === 0 ? first : second)));
    const row = await first
      .selectFrom('features')
      .select('updated_at')
      .where('name', '=', 'counter')
      .executeTakeFirstOrThrow();
    expect(row.updated_at).toBe('20');
  });

  it('tells a unique violation (23505) from other failures', async () => {
    const db = await open();
    await addFeature(db, 'twice');
    const error = await addFeature(db, 'twice').catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
    const other = await sql`select * from no_such_table`.execute(db).catch((caught: unknown) => caught);
    expect(isUniqueViolation(other)).toBe(false);
  });

  it('compares a number beyond bigint with an ID as SQLite does: no row, no error', async () => {
    const db = await open();
    const now = new Date().toISOString();
    await db
      .insertInto('jobs')
      .values({
        kind: 'none',
        payload: '{}',
        state: 'done',
        run_at: now,
        attempts: 0,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const huge = Number('99999999999999999999');
    const ids = (compare: '=' | '<' | '>', value: number) =>
      db.selectFrom('jobs').select('id').where('id', compare, value).execute();
    expect(await ids('=', huge)).toEqual([]);
    expect(await ids('<', huge)).toHaveLength(1);
    expect(await ids('>', -huge)).toHaveLength(1);
  });

  it('takes text holding U+0000 in writes and reads, as SQLite does: found again with it, no error', async () => {
    const db = await open();
    await addFeature(db, 'with\u0000nul');
    const named = (name: string) =>
      db.selectFrom('features').select('name').where('name', '=', name).execute();
    expect(await named('with\u0000nul')).toHaveLength(1);
    expect(await named('\u0000')).toEqual([]);
  });

  it('changes its version with its own writes at once, and with another instance\u2019s once refreshed', async () => {
    const [db, other] = [await open(), await open()];
    if (!db || !other) throw new Error('not opened');
    await refreshDatabaseVersion(db);
    const before = databaseVersion(db);
    expect(before).toBeDefined();
    await db.selectFrom('features').selectAll().execute();
    await refreshDatabaseVersion(db);
    expect(databaseVersion(db)).toBe(before);
    await addFeature(db, 'own');
    const afterOwn = databaseVersion(db);
    expect(afterOwn).not.toBe(before);
    await addFeature(other, 'elsewhere');
    await refreshDatabaseVersion(db);
    expect(databaseVersion(db)).not.toBe(afterOwn);
  });

  it('keeps its version through statements and transactions that changed no row', async () => {
    const db = await open();
    await addFeature(db, 'kept');
    const unchanged = async (change: () => Promise<unknown>) => {
      await refreshDatabaseVersion(db);
      const before = databaseVersion(db);
      await change();
      await refreshDatabaseVersion(db);
      return databaseVersion(db) === before;
    };
    // Other test files write to other databases of the same cluster meanwhile, which changes the snapshot
    // (the cluster's): a change with nothing written is told by its staying the same in one of a few tries.
    const tries = async (change: () => Promise<unknown>) => {
      for (let attempt = 0; attempt < 5; attempt++) if (await unchanged(change)) return true;
      return false;
    };
    const noRow = (executor: Db) =>
      executor.updateTable('features').set({ updated_at: 'x' }).where('name', '=', 'none').execute();
    expect(await tries(() => noRow(db))).toBe(true);
    expect(await tries(() => db.deleteFrom('features').where('name', '=', 'none').execute())).toBe(true);
    expect(await tries(() => db.transaction().execute((trx) => noRow(trx)))).toBe(true);
    expect(await unchanged(() => addFeature(db, 'changed'))).toBe(false);
    expect(
      await unchanged(() =>
        db
          .transaction()
          .execute((trx) =>
            trx.updateTable('features').set({ updated_at: 'y' }).where('name', '=', 'kept').execute(),
          ),
      ),
    ).toBe(false);
  });

  it('survives the loss of a connection it holds between statements: the transaction fails, the next query works', async () => {
    const [db, other] = [await open(), await open()];
    if (!db || !other) throw new Error('not opened');
    const lost = db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      // As when PostgreSQL restarts or an operator ends the session: the backend goes while the server holds
      // its connection and runs no query on it, so the driver's client reports an error with no query to
      // give it to (an unhandled 'error' event ends the process).
      await sql`select pg_terminate_backend(${rows[0]?.pid}, 5000)`.execute(other);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await sql`select 1`.execute(trx);
    });
    await expect(lost).rejects.toThrow();
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
