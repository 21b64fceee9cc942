// The first step of every API request: what other instances wrote before the request arrived invalidates
// the caches the request reads (core/store/databaseVersion.ts). Nothing to do on SQLite.
import type { RequestHandler } from 'express';
import type { Db } from '../store/database.js';
import { refreshDatabaseVersion } from '../store/databaseVersion.js';

export function databaseVersionRefresh(db: Db): RequestHandler {
  return (_req, _res, next) => {
    const refreshing = refreshDatabaseVersion(db);
    if (refreshing) refreshing.then(() => next(), next);
    else next();
  };
}
