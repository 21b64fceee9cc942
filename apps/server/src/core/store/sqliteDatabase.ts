// The embedded backend: one SQLite file under the data directory, shared by the processes of one machine.
import { join } from 'node:path';
import { Kysely } from 'kysely';
import { trackDatabaseVersion } from './databaseVersion.js';
import { SQLite } from './sqliteDriver.js';
import { withStatementCache } from './statementCache.js';
import type { Database } from './tables.js';
import { BLOCKING_BUSY_TIMEOUT_MS, WriteLockingSqliteDialect } from './writeLocking.js';

/** Opens (creating it when missing) the data directory's SQLite file behind Kysely; not yet migrated. */
export function openSqlite(dataDir: string): { db: Kysely<Database>; afterMigration: () => void } {
  const sqlite = new SQLite(join(dataDir, 'collab.sqlite3'));
  // Other processes may hold the write lock: a short blocking wait, then the dialect's asynchronous retries.
  sqlite.pragma(`busy_timeout = ${BLOCKING_BUSY_TIMEOUT_MS}`);
  // WAL lets readers proceed while a writer commits; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Every transaction takes the write lock at its start and every write waits for the lock: writeLocking.ts.
  const db = new Kysely<Database>({ dialect: new WriteLockingSqliteDialect(withStatementCache(sqlite)) });
  return { db, afterMigration: () => trackDatabaseVersion(db, sqlite) };
}
