// Opens the embedded SQLite database (a file under the data directory) behind Kysely and applies migrations.
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { trackDatabaseVersion } from './databaseVersion.js';
import { migrationProvider } from './migrations/index.js';
import { withStatementCache } from './statementCache.js';
import type { Database } from './tables.js';

export type Db = Kysely<Database>;

export async function openDatabase(dataDir: string): Promise<Db> {
  const sqlite = new SQLite(join(dataDir, 'collab.sqlite3'));
  // WAL lets readers proceed while a writer commits; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    await db.destroy();
    throw new Error(`database migration failed: ${failed?.migrationName ?? ''} ${String(error)}`);
  }
  trackDatabaseVersion(db, sqlite);
  return db;
}

/** The current time as the API renders timestamps (ISO 8601 UTC with milliseconds). */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Today's date in UTC, as the API renders dates (YYYY-MM-DD). */
export function todayIso(): string {
  // Asked several times per request (cache keys, token expiry): formatted once per day.
  const now = Date.now();
  if (now < today.startsAtMs || now >= today.startsAtMs + 86_400_000) {
    const date = new Date(now).toISOString().slice(0, 10);
    today = { date, startsAtMs: Date.parse(`${date}T00:00:00.000Z`) };
  }
  return today.date;
}

let today = { date: '', startsAtMs: Number.NEGATIVE_INFINITY };
