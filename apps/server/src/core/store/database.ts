// Opens the embedded SQLite database (a file under the data directory) behind Kysely and applies migrations.
import { join } from 'node:path';
import { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { trackDatabaseVersion } from './databaseVersion.js';
import { migrationProvider } from './migrations/index.js';
import { SQLite } from './sqliteDriver.js';
import { withStatementCache } from './statementCache.js';
import type { Database } from './tables.js';
import { BLOCKING_BUSY_TIMEOUT_MS, WriteLockingSqliteDialect } from './writeLocking.js';

export type Db = Kysely<Database>;

export async function openDatabase(dataDir: string): Promise<Db> {
  const sqlite = new SQLite(join(dataDir, 'collab.sqlite3'));
  // Other processes may hold the write lock: a short blocking wait, then the dialect's asynchronous retries.
  sqlite.pragma(`busy_timeout = ${BLOCKING_BUSY_TIMEOUT_MS}`);
  // WAL lets readers proceed while a writer commits; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Every transaction takes the write lock at its start and every write waits for the lock: writeLocking.ts.
  const db = new Kysely<Database>({ dialect: new WriteLockingSqliteDialect(withStatementCache(sqlite)) });
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

/**
 * Whether a write failed on a unique key (a primary key included): the store's word for "that exists
 * already", which a service turns into its own 400 or 409. SQLite's wording stays here, in core/store.
 */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed|PRIMARY KEY/.test(error.message);
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
