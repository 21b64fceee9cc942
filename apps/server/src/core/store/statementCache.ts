// Kysely's SQLite driver prepares every query anew; preparing is a good part of a small query's cost. This
// wrapper keeps the prepared statements of the database by SQL text (the queries are a fixed set, so the
// cache stays small) and hands the driver the same statement again.
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';

const MAX_STATEMENTS = 2000;

export function withStatementCache(database: SqliteDatabase): SqliteDatabase {
  const statements = new Map<string, Statement>();
  return new Proxy(database, {
    get(target, property, receiver) {
      if (property !== 'prepare') return Reflect.get(target, property, receiver);
      return (sql: string): Statement => {
        let statement = statements.get(sql);
        if (!statement) {
          if (statements.size >= MAX_STATEMENTS) statements.clear();
          statement = target.prepare(sql);
          statements.set(sql, statement);
        }
        return statement;
      };
    },
  });
}
