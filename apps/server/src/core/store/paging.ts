// The one way a list reads its page from the database: the page's rows with LIMIT/OFFSET and the count of
// the whole filtered collection, so a list costs what its page costs, whatever the collection's size.
// Counting is the one part that reads the whole collection (an index range: about 0.5 ms for 10,000
// rows, more than the rest of a request), so counts are kept until the database changes. So are the pages
// themselves: a list polled between two writes (a pipeline list on a dashboard) runs no statement at all,
// and running one was half the CPU time of a small list under load (a 5-row page of pipelines: 170 of
// 350 us per request, against 40 us measured warm in a loop: the statement's pages and code are cold
// between requests). Any write, by any process, drops every page (CachedUntilDatabaseChange).
import type { CompiledQuery, SelectQueryBuilder } from 'kysely';
import type { Db } from './database.js';
import { CachedUntilDatabaseChange } from './databaseVersion.js';

/** Which rows of a list to read: `limit` rows after the first `offset` (both safe integers). */
export interface PageWindow {
  offset: number;
  limit: number;
}

/** One page of a list and the size of the whole list (for the X-Total headers). */
export interface Page<T> {
  items: T[];
  total: number;
}

const counts = new CachedUntilDatabaseChange<number>(1000);
// Pages hold up to 100 rows: fewer entries than counts, so that a burst of distinct pages between two writes
// keeps the memory they take small.
const pages = new CachedUntilDatabaseChange<readonly unknown[]>(200);

/**
 * Reads one page of `filtered` (a query on `db` with its joins and WHERE clauses, selecting nothing yet):
 * the count of all its rows, then the rows that `selectRows` selects and orders, cut to the window. A
 * window past the end reads no rows at all.
 */
export async function readPageOf<DB, TB extends keyof DB, O>(
  db: Db,
  filtered: SelectQueryBuilder<DB, TB, object>,
  selectRows: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  window: PageWindow,
): Promise<Page<O>> {
  // Compiled once: its text (without the window) keys the count, and it runs as it is. Compiling a query
  // costs about as much as running a small one, so a list compiles nothing else when its count is cached.
  const rows = selectRows(filtered).limit(window.limit).offset(window.offset).compile();
  const countKey = countKeyOf(rows, window);
  const total = await counts.get(db, countKey, async () => {
    const countQuery = filtered.select((eb) => eb.fn.countAll().as('total'));
    // Typed by hand: Kysely cannot narrow the selection of a query whose tables are a type parameter.
    const counted = (await countQuery.executeTakeFirstOrThrow()) as { total: number | bigint | string };
    return Number(counted.total);
  });
  if (window.offset >= total) return { items: [], total };
  const items = await pages.get(db, `${countKey}\0${window.limit}\0${window.offset}`, async () => {
    const { rows: read } = await db.executeQuery<O>(rows);
    // Shared by every request for this page until the next write: frozen, so that no presenter can change
    // the rows another request reads (it would throw instead).
    return read.map((row) => Object.freeze(row));
  });
  return { items: items as O[], total };
}

// Whole pages (rows and total) by the key their caller names them with.
const namedPages = new CachedUntilDatabaseChange<Page<unknown>>(200);

/**
 * A page found by a key its caller names it with, before its statement is built: readPageOf finds a kept page
 * only by the compiled statement, and building and compiling it cost more than the rest of a list read again
 * between two writes (a dashboard polling a project's pipelines). `key` must hold every value the list's
 * statement reads (the parent's id, each filter, the order, the window) and start with the list's name;
 * `read` reads the page on a miss (with readPageOf). Kept until the database changes, as readPageOf's.
 */
export async function readNamedPageOf<O>(
  db: Db,
  key: string,
  read: () => Promise<Page<O>>,
): Promise<Page<O>> {
  return (await namedPages.get(db, key, read)) as Page<O>;
}

/**
 * Every window of one filtered and ordered query has the same count: the key is the query without its
 * `limit ? offset ?` (Kysely puts them last; `limit $n offset $m` on PostgreSQL), or the whole query if it
 * ends otherwise.
 */
export function countKeyOf(rows: CompiledQuery, window: PageWindow): string {
  const parameters = rows.parameters;
  const windowed =
    / limit (\?|\$\d+) offset (\?|\$\d+)$/.test(rows.sql) &&
    parameters.at(-2) === window.limit &&
    parameters.at(-1) === window.offset;
  return JSON.stringify(windowed ? [rows.sql, parameters.slice(0, -2)] : [rows.sql, parameters]);
}

/** Cuts one page out of a list that is already ordered (names read from git, say), with its total. */
export function pageOfList<T>(list: readonly T[], window: PageWindow): Page<T> {
  return { items: list.slice(window.offset, window.offset + window.limit), total: list.length };
}
