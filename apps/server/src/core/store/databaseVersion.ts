// Which state of the database a value was read from, so that reads can be cached until the next write.
//
// SQLite keeps two counters that together change whenever the data may have changed: total_changes() counts
// the rows this connection has inserted, updated or deleted (exact, and cheap: 0.15 µs), and PRAGMA
// data_version changes when another connection (the move-storage command, another server process on the
// same file) commits. The pragma costs about 5 µs, so it is read once per turn of the event loop: every
// request whose bytes had arrived when the turn began sees any commit that happened before it was sent.
//
// On PostgreSQL (several instances on one database) the version has two parts too: a counter of this
// process's writes (bumped after each statement that changed rows and at the commit of a transaction that
// did, so a request reads its own writes at once), and the database's current snapshot
// (`pg_current_snapshot()`), read at the start of each request and of each job (refreshDatabaseVersion). The
// snapshot changes when a transaction that changed rows (or locked them) ends, in any instance, and with
// nothing else: reads, statements that changed no row and transactions that only took the advisory write
// lock leave it as it was. Two reads with the same snapshot see the same data. The snapshot is the
// cluster's (transaction IDs are): writes to another database of the same cluster change it too. The requests
// of one turn of the event loop share one read, sent after all of them came (readsAfterEachTurn); reads of
// successive turns may overlap, and an older read's answer never replaces a newer one's.
import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { Db } from './database.js';

const versionReaders = new WeakMap<Db, () => string | undefined>();
const versionRefreshers = new WeakMap<Db, () => Promise<void>>();

export function trackDatabaseVersion(db: Db, sqlite: SqliteDatabase): void {
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  let dataVersionThisTurn: number | undefined;
  // The version last given out: while neither counter moves, the same string (no new string to make, and a
  // cheap comparison for the caches).
  let last = { changes: -1, dataVersion: -1, version: '' };
  versionReaders.set(db, () => {
    // Inside a transaction the data read may yet be rolled back (and total_changes does not go back): no
    // version, so nothing read then is cached.
    if (sqlite.inTransaction) return undefined;
    if (dataVersionThisTurn === undefined) {
      dataVersionThisTurn = dataVersion.get() as number;
      setImmediate(() => {
        dataVersionThisTurn = undefined;
      });
    }
    const changes = totalChanges.get() as number;
    if (changes !== last.changes || dataVersionThisTurn !== last.dataVersion) {
      last = { changes, dataVersion: dataVersionThisTurn, version: `${changes}:${dataVersionThisTurn}` };
    }
    return last.version;
  });
}

/** This process's writes to a PostgreSQL database: bumped by its driver (postgresDatabase.ts). */
export class LocalWrites {
  count = 0;

  bump(): void {
    this.count++;
  }
}

/**
 * `readSnapshot` gives the database's current snapshot (`pg_current_snapshot()` as text): the driver reads it
 * without the query builder, as nearly every request waits for one.
 */
export function trackPostgresVersion(
  db: Db,
  writes: LocalWrites,
  readSnapshot: () => Promise<string | undefined>,
): void {
  let snapshot: string | undefined;
  let last = { writes: -1, snapshot: '', version: '' };
  versionReaders.set(db, () => {
    if (snapshot === undefined) return undefined;
    if (writes.count !== last.writes || snapshot !== last.snapshot) {
      last = { writes: writes.count, snapshot, version: `${writes.count}:${snapshot}` };
    }
    return last.version;
  });
  // Reads may end out of order (each on its own connection of the pool): the newest sent that has ended wins.
  let sent = 0;
  let applied = 0;
  versionRefreshers.set(
    db,
    readsAfterEachTurn(async () => {
      const order = ++sent;
      const read = await readSnapshot();
      if (order > applied) {
        applied = order;
        snapshot = read;
      }
    }, MAX_SNAPSHOT_READS_AT_ONCE),
  );
}

/** Snapshot reads under way at once, at most: each holds a connection of the pool (10). */
const MAX_SNAPSHOT_READS_AT_ONCE = 3;

interface Waiting {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function waiting(): Waiting {
  let resolve: () => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<void>((resolved, rejected) => {
    resolve = resolved;
    reject = rejected;
  });
  return { promise, resolve, reject };
}

/**
 * `read` for callers that each need a read begun after they called: the callers of one turn of the event
 * loop share one read, begun once the turn's I/O is done (setImmediate: every request whose bytes were read
 * in the turn has called by then), and reads of successive turns may run at once, at most `maxAtOnce`;
 * callers beyond wait for the next read to begin, which serves all of them. Under load one read serves
 * the requests of a turn, and a request waits for one read, not for the end of another one first.
 */
export function readsAfterEachTurn(read: () => Promise<void>, maxAtOnce: number): () => Promise<void> {
  let next: Waiting | undefined;
  let running = 0;
  const begin = (): void => {
    if (next === undefined || running >= maxAtOnce) return;
    const callers = next;
    next = undefined;
    running++;
    // A read that throws at once fails its callers as one that rejects does (never the event loop).
    let run: Promise<void>;
    try {
      run = read();
    } catch (error) {
      run = Promise.reject(error);
    }
    run.then(callers.resolve, callers.reject).finally(() => {
      running--;
      begin();
    });
  };
  return () => {
    if (next === undefined) {
      next = waiting();
      setImmediate(begin);
    }
    return next.promise;
  };
}

/**
 * Reads what other processes may have changed since, where that costs a query (PostgreSQL): called at the
 * start of each request and each job. On SQLite there is nothing to do (PRAGMA data_version is read as
 * needed, once per turn of the event loop).
 */
export function refreshDatabaseVersion(db: Db): Promise<void> | undefined {
  return versionRefreshers.get(db)?.();
}

/** The current version of the database behind `db`, or undefined when it cannot be told (a transaction). */
export function databaseVersion(db: Db): string | undefined {
  return versionReaders.get(db)?.();
}

/**
 * Values computed from the database, kept until the database changes: any write, by this process or by
 * another on the same file, drops every entry. A value is kept only when no write happened while it was
 * computed. The values are shared between requests: callers must not modify them.
 */
export class CachedUntilDatabaseChange<Value> {
  private readonly byDatabase = new WeakMap<Db, { version: string; entries: Map<string, Value> }>();

  constructor(private readonly maxEntries: number) {}

  /** The value kept for `key` at the database's current version, without computing it; undefined if none. */
  peek(db: Db, key: string): Value | undefined {
    const version = databaseVersion(db);
    if (version === undefined) return undefined;
    const cache = this.byDatabase.get(db);
    return cache?.version === version ? cache.entries.get(key) : undefined;
  }

  async get(db: Db, key: string, compute: () => Promise<Value>): Promise<Value> {
    const version = databaseVersion(db);
    if (version === undefined) return compute();
    let cache = this.byDatabase.get(db);
    if (!cache || cache.version !== version) {
      cache = { version, entries: new Map() };
      this.byDatabase.set(db, cache);
    }
    if (cache.entries.has(key)) return cache.entries.get(key) as Value;
    const value = await compute();
    if (databaseVersion(db) === version) {
      if (cache.entries.size >= this.maxEntries) cache.entries.clear();
      cache.entries.set(key, value);
    }
    return value;
  }
}
