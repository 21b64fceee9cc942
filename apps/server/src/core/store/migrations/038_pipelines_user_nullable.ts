// `pipelines.user_id` may be null (issue 27): a hard deletion of a user leaves the user's pipelines without a
// user, as GitLab's `has_many :pipelines, dependent: :nullify` does; the API answers `user: null`.
//
// PostgreSQL drops the constraint in place. SQLite cannot change a column's constraint: the table is rebuilt
// as SQLite's documentation says (its "making other kinds of table schema changes"): with foreign keys off,
// in one transaction, a copy of the table made from its own stored definition without that one NOT NULL,
// the rows copied with their IDs, the old table dropped and the copy renamed, its indexes and triggers made
// again from their stored definitions, the AUTOINCREMENT counter kept (no ID is given twice), and the
// foreign keys checked before the commit. The jobs' and variables' references name the table, so they hold.
import { type Kysely, sql, type Transaction } from 'kysely';
import { isPostgres } from '../dialect.js';

const NOT_NULL_USER = '"user_id" integer not null references "users" ("id")';
const NULLABLE_USER = '"user_id" integer references "users" ("id")';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table pipelines alter column user_id drop not null`.execute(db);
    return;
  }
  // Outside the transaction: SQLite ignores this pragma inside one. With foreign keys on, dropping the old
  // table would delete its jobs and variables (their `on delete cascade`).
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(rebuildPipelines);
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function rebuildPipelines(trx: Transaction<unknown>): Promise<void> {
  const table = await sql<{ sql: string }>`
    select sql from sqlite_schema where type = 'table' and name = 'pipelines'`.execute(trx);
  const definition = table.rows[0]?.sql;
  if (!definition?.includes(NOT_NULL_USER) || !definition.startsWith('CREATE TABLE "pipelines" ('))
    throw new Error(`pipelines: unexpected definition ${definition ?? '(none)'}`);
  const others = await sql<{ sql: string }>`
    select sql from sqlite_schema
    where tbl_name = 'pipelines' and type in ('index', 'trigger') and sql is not null
    order by rowid`.execute(trx);
  const sequence = await sql<{ seq: number }>`
    select seq from sqlite_sequence where name = 'pipelines'`.execute(trx);

  const copy = definition
    .replace('CREATE TABLE "pipelines" (', 'CREATE TABLE "pipelines_rebuilt" (')
    .replace(NOT_NULL_USER, NULLABLE_USER);
  await sql.raw(copy).execute(trx);
  await sql`insert into pipelines_rebuilt select * from pipelines`.execute(trx);
  await sql`drop table pipelines`.execute(trx);
  await sql`alter table pipelines_rebuilt rename to pipelines`.execute(trx);
  for (const { sql: statement } of others.rows) await sql.raw(statement).execute(trx);
  // The copy's counter is its highest copied ID; the old one may be higher (the newest pipelines deleted).
  const copied = await sql<{ seq: number }>`
    select seq from sqlite_sequence where name = 'pipelines'`.execute(trx);
  const seq = Math.max(sequence.rows[0]?.seq ?? 0, copied.rows[0]?.seq ?? 0);
  await sql`delete from sqlite_sequence where name = 'pipelines'`.execute(trx);
  if (seq > 0) await sql`insert into sqlite_sequence (name, seq) values ('pipelines', ${seq})`.execute(trx);

  const violations = await sql`select * from pragma_foreign_key_check`.execute(trx);
  if (violations.rows.length > 0)
    throw new Error(`pipelines: foreign keys broken by the rebuild: ${JSON.stringify(violations.rows)}`);
}
