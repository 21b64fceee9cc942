// What every router and service of one running server shares.
import type { RepositoryStorages } from './git/storages.js';
import type { Db } from './store/database.js';

export interface ServerContext {
  db: Db;
  dataDir: string;
  storages: RepositoryStorages;
}
