// Which SQL dialect a Kysely instance speaks, for the few statements the two backends write differently
// (a trigger in a migration, resetting id sequences). Everything else is SQL that SQLite and PostgreSQL share.
import { type Kysely, sql } from 'kysely';

/**
 * Whether `db` runs on PostgreSQL. Told from the public compiler: PostgreSQL numbers its parameters (`$1`),
 * SQLite does not (`?`). Works on a transaction or a migration's `db` as on the instance itself.
 */
export function isPostgres<DB>(db: Kysely<DB>): boolean {
  return sql`${0}`.compile(db).sql === '$1';
}
