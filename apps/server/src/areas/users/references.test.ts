// A deletion of a user must not fail on a foreign key: every column that names a user either goes with the
// user (ON DELETE CASCADE or SET NULL) or is one the areas' hand-over functions move to the ghost user, clear
// or delete (KEPT_USER_REFERENCES). A table added later with such a column fails here until the deletion
// knows it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../core/store/database.js';
import { KEPT_USER_REFERENCES } from './store.js';

let dataDir: string;
let db: Db;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'collab-user-references-'));
  db = await openDatabase(dataDir);
});
afterAll(async () => {
  await db.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

interface ForeignKey {
  table: string;
  from: string;
  on_delete: string;
}

describe('the columns that name a user', () => {
  it('each go with the user or are moved to the ghost user by a deletion', async () => {
    const { rows } = await sql<ForeignKey>`
      select m.name as "table", f."from" as "from", f.on_delete as on_delete
      from sqlite_master m, pragma_foreign_key_list(m.name) f
      where m.type = 'table' and f."table" = 'users'`.execute(db);
    expect(rows.length).toBeGreaterThan(10);
    const kept = rows
      .filter((row) => !['CASCADE', 'SET NULL'].includes(row.on_delete.toUpperCase()))
      .map((row) => `${row.table}.${row.from}`)
      .sort();
    const moved = KEPT_USER_REFERENCES.map(([table, column]) => `${table}.${column}`).sort();
    expect(kept).toEqual(moved);
  });
});
