// The SQLite driver for the Node.js release running the server: the one place that loads better-sqlite3.
//
// better-sqlite3 12 wraps its objects in Node's own `node::ObjectWrap`; built against the headers of
// Node.js 24.19 or later, it aborts the process when a statement is collected after its environment is gone
// (`Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook: nodejs/node#65446; seen here in the
// server tests under 24.21). better-sqlite3 13 uses Node-API and has no such problem, but needs Node.js 22
// (on 20 it crashes). Both are installed: 13 as `better-sqlite3-napi` for Node.js 22 and later, 12 for 20.
// Their API is the same for everything this server uses, so both are typed as 12's.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

/** better-sqlite3's `Database` constructor (`new SQLite(file)`), the build that suits this Node.js. */
export const SQLite: typeof BetterSqlite3 =
  nodeMajor >= 22 ? require('better-sqlite3-napi') : require('better-sqlite3');

/** A connection, as better-sqlite3 types it. */
export type SqliteDatabase = BetterSqlite3.Database;
