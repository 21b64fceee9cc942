// Migration 038 on SQLite, which rebuilds the pipelines table to make `user_id` nullable: a database migrated
// to 037 with pipelines, jobs and variables in it keeps every row, ID, index and foreign key, and never gives
// a deleted pipeline's ID again. (On PostgreSQL the migration is one ALTER TABLE; every server test there
// runs it.)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../sqliteDatabase.js';
import type { Database } from '../tables.js';
import { migrationProvider } from './index.js';

let dataDir: string;
let db: Kysely<Database>;
let migrator: Migrator;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-migration-038-'));
  db = openSqlite(dataDir).db;
  migrator = new Migrator({ db, provider: migrationProvider });
  const { error } = await migrator.migrateTo('037_allow_merge_on_skipped_pipeline');
  if (error) throw error;
});
afterAll(async () => {
  await db.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

const now = '2026-01-01T00:00:00.000Z';

/** The schema objects of the pipelines tables, as SQLite stores them. */
async function schemaOf(): Promise<{ type: string; name: string; sql: string | null }[]> {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_schema
    where tbl_name in ('pipelines', 'pipeline_jobs', 'pipeline_variables') order by type, name`.execute(db);
  return rows;
}

async function insertPipeline(projectId: number, iid: number, userId: number | null): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    insert into pipelines (project_id, iid, sha, before_sha, ref, tag, status, source, user_id, created_at,
      updated_at)
    values (${projectId}, ${iid}, 'abc', '000', 'main', 0, 'success', 'api', ${userId}, ${now}, ${now})
    returning id`.execute(db);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no pipeline inserted');
  return id;
}

describe('migration 038 (pipelines.user_id nullable) on SQLite', () => {
  it('keeps the rows, IDs, indexes and foreign keys, and lets user_id be null', async () => {
    await sql`insert into users (id, username, name, email, created_at) values (7, 'u', 'U', 'u@x.test', ${now})`.execute(
      db,
    );
    await sql`insert into groups (id, name, path, full_path, visibility, created_at)
      values (3, 'g', 'g', 'g', 'public', ${now})`.execute(db);
    await sql`insert into projects (id, name, path, namespace_id, visibility, creator_id, created_at,
      last_activity_at) values (5, 'p', 'p', 3, 'public', 7, ${now}, ${now})`.execute(db);
    const first = await insertPipeline(5, 1, 7);
    const second = await insertPipeline(5, 2, 7);
    const third = await insertPipeline(5, 3, 7);
    await sql`insert into pipeline_jobs (pipeline_id, name, stage, stage_index, status, outcome,
      duration_seconds, script, created_at, updated_at)
      values (${second}, 'build', 'build', 0, 'success', 'success', 1, '[]', ${now}, ${now})`.execute(db);
    await sql`insert into pipeline_variables (pipeline_id, key, value, variable_type)
      values (${second}, 'KEY', 'value', 'env_var')`.execute(db);
    // The newest pipeline is gone: its ID must not be given again after the rebuild.
    await sql`delete from pipelines where id = ${third}`.execute(db);
    // Without the migration a pipeline needs a user.
    await expect(insertPipeline(5, 9, null)).rejects.toThrow(/NOT NULL/);
    const before = await schemaOf();

    const { error, results } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    expect(results?.map((result) => [result.migrationName, result.status])).toContainEqual([
      '038_pipelines_user_nullable',
      'Success',
    ]);

    const after = await schemaOf();
    expect(after.map((row) => [row.type, row.name])).toEqual(before.map((row) => [row.type, row.name]));
    expect(after.filter((row) => row.type === 'index')).toEqual(before.filter((row) => row.type === 'index'));
    const pipelines = await sql<{ id: number; iid: number; user_id: number | null }>`
      select id, iid, user_id from pipelines order by id`.execute(db);
    expect(pipelines.rows).toEqual([
      { id: first, iid: 1, user_id: 7 },
      { id: second, iid: 2, user_id: 7 },
    ]);
    const jobs = await sql<{ pipeline_id: number }>`select pipeline_id from pipeline_jobs`.execute(db);
    expect(jobs.rows).toEqual([{ pipeline_id: second }]);
    const variables = await sql<{ key: string }>`select key from pipeline_variables`.execute(db);
    expect(variables.rows).toEqual([{ key: 'KEY' }]);

    // user_id may be null now; the next pipeline gets an ID never given before.
    const next = await insertPipeline(5, 4, null);
    expect(next).toBe(third + 1);
    // Foreign keys are on again and still point at the table: an unknown user or project is refused, and a
    // pipeline's deletion takes its jobs and variables with it.
    expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows).toEqual([
      { foreign_keys: 1 },
    ]);
    await expect(insertPipeline(5, 5, 999)).rejects.toThrow(/FOREIGN KEY/);
    await expect(insertPipeline(999, 5, 7)).rejects.toThrow(/FOREIGN KEY/);
    await sql`delete from pipelines where id = ${second}`.execute(db);
    expect((await sql`select id from pipeline_jobs`.execute(db)).rows).toEqual([]);
    expect((await sql`select id from pipeline_variables`.execute(db)).rows).toEqual([]);
    // The user cannot be deleted while a pipeline names it (the deletion nullifies or moves them first).
    await expect(sql`delete from users where id = 7`.execute(db)).rejects.toThrow(/FOREIGN KEY/);
  });
});
