// Opens the database behind Kysely and applies migrations: the embedded SQLite file under the data directory
// (the default), or a PostgreSQL database given by its URL, which several server instances may share.
import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrationProvider } from './migrations/index.js';
import { openSqlite } from './sqliteDatabase.js';
import type { Database } from './tables.js';

export type Db = Kysely<Database>;

/** `databaseUrl`: a `postgres://` or `postgresql://` URL; without it, the SQLite file under `dataDir`. */
export async function openDatabase(dataDir: string, databaseUrl?: string): Promise<Db> {
  // The PostgreSQL driver (pg and its type parsers) is loaded only by a server that uses it: on SQLite its
  // modules would only lengthen every start.
  const { db, afterMigration } = databaseUrl
    ? (await import('./postgresDatabase.js')).openPostgres(databaseUrl)
    : openSqlite(dataDir);
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    await db.destroy();
    throw new Error(`database migration failed: ${failed?.migrationName ?? ''} ${String(error)}`);
  }
  afterMigration();
  return db;
}

/**
 * Whether a write failed on a unique key (a primary key included): the store's word for "that exists
 * already", which a service turns into its own 400 or 409. Each backend's wording stays here, in core/store.
 */
export function isUniqueViolation(error: unknown): boolean {
  if ((error as { code?: unknown } | null)?.code === '23505') return true;
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
