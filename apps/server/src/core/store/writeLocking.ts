// Several server processes share one SQLite file, and SQLite has one writer at a time. Two rules keep a busy
// database from ever failing a request:
//
// 1. Every transaction takes the write lock at its start (`begin immediate`). A `begin` that only reads at
//    first and writes later cannot wait for the lock: when another process wrote meanwhile, SQLite fails the
//    write at once (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT) instead of invoking the busy handler. Waiting at the
//    start is always safe, as nothing has been read yet. Every `db.transaction()` goes through this driver,
//    so no area can forget it.
// 2. A statement that finds the lock taken waits for it: first in SQLite's own busy handler for a short
//    moment (it blocks the process, so only briefly), then asynchronously, retried with a growing pause,
//    until a deadline far beyond any transaction's length. A statement inside a transaction is never
//    retried: the transaction already holds the lock.
//
// Transactions stay short for the same reason: none awaits git or the file system while it holds the lock.
import type { Database as SqliteDatabase } from 'better-sqlite3';
import {
  type AbortableOperationOptions,
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';

/** How long SQLite's own busy handler waits, blocking the process, before the asynchronous retries. */
export const BLOCKING_BUSY_TIMEOUT_MS = 50;
/** How long a statement may wait for the write lock in all; a transaction lasts milliseconds. */
const BUSY_DEADLINE_MS = 60_000;
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 100;

/** SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_RECOVERY, SQLITE_BUSY_TIMEOUT). */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `attempt` until it does not fail on a busy database, pausing between attempts (with jitter, so two
 * processes do not keep colliding). Other errors, and a lock still taken at the deadline, are thrown.
 */
export async function retryWhileBusy<T>(
  attempt: () => Promise<T>,
  deadlineMs: number = BUSY_DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusyError(error) || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random())));
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  }
}

/** Kysely's better-sqlite3 dialect, with transactions that take the write lock and statements that wait. */
export class WriteLockingSqliteDialect extends SqliteDialect {
  constructor(private readonly sqlite: SqliteDatabase) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new WriteLockingSqliteDriver(this.sqlite);
  }
}

class WriteLockingSqliteDriver extends SqliteDriver {
  private connection: DatabaseConnection | undefined;

  constructor(private readonly sqlite: SqliteDatabase) {
    super({ database: sqlite });
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    // Kysely hands the one connection to one user at a time (its connection mutex): wrapping it once is enough.
    if (!this.connection)
      this.connection = new WaitingConnection(await super.acquireConnection(), this.sqlite);
    return this.connection;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** A connection whose statements outside a transaction (and `begin immediate` itself) wait for the lock. */
class WaitingConnection implements DatabaseConnection {
  constructor(
    private readonly inner: DatabaseConnection,
    private readonly sqlite: SqliteDatabase,
  ) {}

  executeQuery<R>(
    compiledQuery: CompiledQuery,
    options?: AbortableOperationOptions,
  ): Promise<QueryResult<R>> {
    if (this.sqlite.inTransaction) return this.inner.executeQuery(compiledQuery, options);
    return retryWhileBusy(() => this.inner.executeQuery(compiledQuery, options));
  }

  streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize: number,
    options?: AbortableOperationOptions,
  ): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery(compiledQuery, chunkSize, options);
  }
}
